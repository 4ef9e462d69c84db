// Saved tensors are aliases of the values (Note [Saved tensors are aliases]): an in-place op
// that makes a saved input the output of its own graph must not leave a reference cycle (the
// op_program fuzzer's leak reports), and ops save only what their formulas read, as PyTorch.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_close;

TEST(SavedTensors, InPlaceOnASavedInputLeavesNoCycle) {
  std::weak_ptr<autograd::Node> mul_node, add_node;
  {
    Tensor a = ones({3}).requires_grad_();
    Tensor x = a * 2;
    x.mul_(x);  // MulBackward0 saved x, then x took MulBackward0 as its grad_fn
    mul_node = x.grad_fn();
    Tensor y = a * 2;
    y.add_(y * 3);  // y's new history reaches the node of y * 3, which saved y
    add_node = y.grad_fn();
    ASSERT_FALSE(mul_node.expired());
    EXPECT_EQ(mul_node.lock()->name(), "MulBackward0");
    EXPECT_EQ(add_node.lock()->name(), "AddBackward0");
  }
  EXPECT_TRUE(mul_node.expired()) << "x.mul_(x) left its graph alive";
  EXPECT_TRUE(add_node.expired()) << "y.add_(y * 3) left its graph alive";
}

TEST(SavedTensors, LeafThatStopsRequiringGradLeavesNoCycle) {
  std::weak_ptr<autograd::Node> node;
  {
    Tensor x = tensor({1.0, 2.0}).requires_grad_();
    Tensor y = x * 2;  // its graph holds x's AccumulateGrad
    x.requires_grad_(false);
    x.div_(y);  // x, no longer a grad leaf, gets a history that reaches that AccumulateGrad
    node = x.grad_fn();
    ASSERT_FALSE(node.expired());
    EXPECT_EQ(node.lock()->name(), "DivBackward0");
  }
  EXPECT_TRUE(node.expired()) << "the AccumulateGrad -> x -> grad_fn cycle leaked";
}

TEST(SavedTensors, ModifiedSavedInputIsReportedAtBackward) {
  Tensor a = ones({3}).requires_grad_();
  Tensor x = a * 2;
  x.mul_(x);  // the saved x (version 0) is overwritten: PyTorch refuses the backward too
  std::string message = error_of([&] { x.sum().backward(); });
  EXPECT_NE(message.find("has been modified by an inplace operation"), std::string::npos)
      << message;
  EXPECT_NE(message.find("is at version 1; expected version 0"), std::string::npos) << message;
}

TEST(SavedTensors, OnlyWhatTheFormulaReadsIsSaved) {
  // y * 3 saves 3 (for y's gradient), not y, so overwriting y afterwards is fine: PyTorch gives
  // d(sum(8 a))/da = 8.
  Tensor a = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = a * 2;
  y.add_(y * 3);
  y.sum().backward();
  expect_close(a.grad(), {2}, {8, 8});
  // x / 4 saves only the divisor; 4 / x saves both (x's gradient is -4 / x^2).
  Tensor b = tensor({2.0}).requires_grad_();
  Tensor q = b * 1;
  Tensor r = q / 4;
  q.mul_(10);
  r.backward(ones({1}));
  expect_close(b.grad(), {1}, {0.25});
}

}  // namespace
}  // namespace ember
