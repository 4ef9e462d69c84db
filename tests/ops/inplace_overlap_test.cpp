// Writes into tensors whose elements share memory (expand()ed ones) are refused, as PyTorch's
// assert_no_internal_overlap does, and in-place ops cast the same with autograd as without.
// Found by the differential test against LibTorch (tests/diff).
#include <gtest/gtest.h>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

constexpr const char* kOverlap =
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation.";

bool refused(const std::string& message) { return message.find(kOverlap) != std::string::npos; }

TEST(InPlaceOverlap, WritesIntoSharedElementsAreRefused) {
  Tensor base = tensor({1.f});
  Tensor x = base.expand({3});  // three elements, one memory location
  EXPECT_TRUE(refused(error_of<ValueError>([&] { x.add_(tensor({1.f, 2.f, 3.f})); })));
  EXPECT_TRUE(refused(error_of<ValueError>([&] { x.mul_(2); })));
  EXPECT_TRUE(refused(error_of<ValueError>([&] { add_out(x, ones({3}), ones({3})); })));
  EXPECT_TRUE(refused(error_of<ValueError>([&] { x.copy_(tensor({4.f, 5.f, 6.f})); })));
  EXPECT_TRUE(refused(error_of<ValueError>([&] { x.clamp_(0, 0.5); })));
  EXPECT_TRUE(refused(error_of<ValueError>([&] {
    x.masked_fill_(tensor({true, false, true}), 0);
  })));
  expect_values<float>(base, {1}, {1.f});  // untouched: each write would have landed on it
}

TEST(InPlaceOverlap, EmptyAndFilledTensorsHaveNothingToCollide) {
  Tensor empty_view = zeros({1, 1}).expand({4, 0});
  empty_view.add_(1);  // no elements
  EXPECT_EQ(empty_view.numel(), 0);
  Tensor base = zeros({1});
  base.expand({3}).fill_(2);  // every element gets the same value: PyTorch allows it too
  expect_values<float>(base, {1}, {2.f});
}

TEST(InPlace, CastsTheSameWhenOtherRequiresGrad) {
  // float32 += float64 is allowed (same kind, PyTorch's can_cast), with autograd as without.
  Tensor self = zeros({2});
  Tensor other = tensor({1.0, 2.0}, kFloat64).requires_grad_();
  self.add_(other);
  EXPECT_EQ(self.dtype(), kFloat32);
  EXPECT_TRUE(self.requires_grad());
  expect_values<float>(self, {2}, {1.f, 2.f});
  self.backward(tensor({1.f, 3.f}));
  expect_values<double>(other.grad(), {2}, {1.0, 3.0});
  EXPECT_TRUE(error_of<TypeError>([] {
                Tensor i = zeros({2}, kInt64);
                i.add_(tensor({1.5, 2.5}).requires_grad_());
              }).find("result type Float can't be cast to the desired output type Long") !=
              std::string::npos);
}

}  // namespace
}  // namespace ember
