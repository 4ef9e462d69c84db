// Shape, view and split arguments near int64's limits become clear errors or correct results,
// never overflowed geometry (Note [Size limits] in src/core/tensor_impl.h). Found by the
// view_args fuzzer under UBSan.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t k2to62 = int64_t{1} << 62;

TEST(HugeArguments, EmptyShapesSpanAtMostTwoToThe59) {
  Tensor ok = empty({0, int64_t{1} << 40});  // empty, with a huge dim: fine
  EXPECT_EQ(ok.numel(), 0);
  EXPECT_EQ(ok.stride(0), int64_t{1} << 40);
  EXPECT_PRED2(has, error_of<ValueError>([] {
                 empty({0, k2to62, k2to62});
               }),
               "[empty] shape [0, 4611686018427387904, 4611686018427387904] is too large");
  // 2^62 float64 elements are 2^65 bytes: refused before any byte count wraps around.
  EXPECT_PRED2(has, error_of<ValueError>([] { empty({k2to62}, kFloat64); }), "is too large");
}

TEST(HugeArguments, ViewWithOverflowingSizes) {
  Tensor x = arange(6);
  EXPECT_PRED2(has, error_of<ValueError>([&] {
                 x.view({k2to62, k2to62});
               }),
               "is invalid for input of size 6");
  EXPECT_PRED2(has, error_of<ValueError>([&] {
                 x.view({kInt64Max, -1});
               }),
               "is invalid for input of size 6");
  // An empty tensor viewed as a huge empty shape: its strides would overflow.
  EXPECT_PRED2(has, error_of<ValueError>([] {
                 empty({0}).view({0, k2to62, k2to62});
               }),
               "is too large");
}

TEST(HugeArguments, NarrowAndSlice) {
  Tensor x = arange(10);
  EXPECT_EQ(error_of<IndexError>([&] { x.narrow(0, 2, kInt64Max); }),
            "[narrow] start (2) + length (9223372036854775807) exceeds dimension size (10).");
  expect_values<int64_t>(x.slice(0, 2, 10, kInt64Max), {1}, {2});
  expect_values<int64_t>(x.slice(0, 1, 10, 4), {3}, {1, 5, 9});
  expect_values<int64_t>(x.slice(0, 0, kInt64Max, 3), {4}, {0, 3, 6, 9});
  expect_values<int64_t>(x.slice(0, -kInt64Max, kInt64Max, kInt64Max - 1), {1}, {0});
  // A size-1 result keeps its stride: the step never multiplies into it.
  Tensor m = arange(12).view({3, 4});
  EXPECT_EQ(m.slice(1, 1, 4, kInt64Max).stride(1), 1);
  expect_values<int64_t>(m.slice(1, 1, 4, kInt64Max), {3, 1}, {1, 5, 9});
}

TEST(HugeArguments, SplitAndChunk) {
  Tensor x = arange(5);
  auto one = split(x, kInt64Max);
  ASSERT_EQ(one.size(), 1u);
  expect_values<int64_t>(one[0], {5}, {0, 1, 2, 3, 4});
  auto pieces = split(x, 2);
  ASSERT_EQ(pieces.size(), 3u);
  expect_values<int64_t>(pieces[2], {1}, {4});
  EXPECT_PRED2(has, error_of<ValueError>([&] {
                 split(x, std::vector<int64_t>{kInt64Max, kInt64Max, 2});
               }),
               "split_sizes to sum exactly to 5");
  auto chunks = chunk(x, kInt64Max);  // more chunks than elements: one element each
  ASSERT_EQ(chunks.size(), 5u);
  expect_values<int64_t>(chunks[4], {1}, {4});
}

TEST(HugeArguments, OneHotOfTheLargestClass) {
  EXPECT_PRED2(has, error_of<ValueError>([] { one_hot(tensor({kInt64Max}), -1); }),
               "pass num_classes explicitly");
  expect_values<int64_t>(one_hot(tensor({int64_t{2}}), -1), {1, 3}, {0, 0, 1});
}

TEST(HugeArguments, FromBlobStridesThatReachTooFar) {
  float buffer[4] = {1, 2, 3, 4};
  EXPECT_PRED2(has, error_of<ValueError>([&] {
                 from_blob(buffer, {2, 2}, {kInt64Max, 1});
               }),
               "reaches too far");
  expect_values<float>(from_blob(buffer, {2, 2}, {1, 2}), {2, 2}, {1, 3, 2, 4});
}

TEST(HugeArguments, SizeOfAZeroDimTensor) {
  Tensor s = scalar_tensor(1.0);
  EXPECT_EQ(error_of<IndexError>([&] { (void)s.size(0); }),
            "[size] Dimension specified as 0 but tensor has no dimensions");
  EXPECT_EQ(error_of<IndexError>([&] { (void)s.stride(-1); }),
            "[stride] Dimension specified as -1 but tensor has no dimensions");
}

}  // namespace
}  // namespace ember
