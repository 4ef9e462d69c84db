// Autograd's semantics as PyTorch defines them: leaves and non-leaves, accumulation, grad mode,
// retain_grad/retain_graph, version counters, node names and the errors users know.
#include <gtest/gtest.h>

#include "test_util.h"

namespace ember::test {
namespace {

TEST(Autograd, LeafAccumulatesAndNonLeafDoesNot) {
  Tensor w = tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor y = (w * w).sum();  // dy/dw = 2w
  EXPECT_TRUE(w.is_leaf());
  EXPECT_FALSE(y.is_leaf());
  EXPECT_TRUE(y.requires_grad());
  y.backward();
  expect_close(w.grad(), {3}, {2, 4, 6});
  (w * 3.0).sum().backward();  // accumulates, as in PyTorch
  expect_close(w.grad(), {3}, {5, 7, 9});
  EXPECT_FALSE(y.grad().defined());  // a non-leaf keeps no grad unless retain_grad()
  w.mutable_grad() = Tensor();       // zero_grad(set_to_none=True)
  EXPECT_FALSE(w.grad().defined());
}

TEST(Autograd, SameGradientToTwoLeavesIsNotShared) {
  Tensor a = tensor({1.0, 2.0}).requires_grad_(), b = tensor({3.0, 4.0}).requires_grad_();
  (a + b).sum().backward();
  a.mutable_grad().mul_(10.0);
  expect_close(b.grad(), {2}, {1, 1});  // b's grad is its own tensor
  expect_close(a.grad(), {2}, {10, 10});
}

TEST(Autograd, GradFnNamesMatchPyTorch) {
  Tensor x = ones({2, 3}).requires_grad_(), w = ones({1, 3}).requires_grad_(),
         b = zeros({1}).requires_grad_();
  EXPECT_EQ(linear(x, w, b).grad_fn()->name(), "AddmmBackward0");
  EXPECT_EQ(linear(x, w).grad_fn()->name(), "MmBackward0");
  EXPECT_EQ((x + x).grad_fn()->name(), "AddBackward0");
  EXPECT_EQ((x * 2).grad_fn()->name(), "MulBackward0");
  EXPECT_EQ(x.sum().grad_fn()->name(), "SumBackward0");
  EXPECT_EQ(x.sum({1}).grad_fn()->name(), "SumBackward1");
  EXPECT_EQ(x.mean().grad_fn()->name(), "MeanBackward0");
  EXPECT_EQ(relu(x).grad_fn()->name(), "ReluBackward0");
  EXPECT_EQ(x.view({3, 2}).grad_fn()->name(), "ViewBackward0");
  EXPECT_EQ(x.t().grad_fn()->name(), "TBackward0");
  EXPECT_EQ(log_softmax(x, 1).grad_fn()->name(), "LogSoftmaxBackward0");
  EXPECT_EQ(x.to(kFloat64).grad_fn()->name(), "ToCopyBackward0");
  // The graph behind Linear: AddmmBackward0 -> (bias's AccumulateGrad, -, TBackward0).
  auto fn = linear(x, w, b).grad_fn();
  ASSERT_EQ(fn->next_functions().size(), 3u);
  EXPECT_EQ(fn->next_functions()[0].function->name(), "AccumulateGrad");
  EXPECT_EQ(fn->next_functions()[1].function->name(), "AccumulateGrad");  // x
  EXPECT_EQ(fn->next_functions()[2].function->name(), "TBackward0");
  EXPECT_FALSE(linear(ones({2, 3}), w).grad_fn()->next_functions()[1].is_valid());
}

TEST(Autograd, PrintsGradFnLikePyTorch) {
  Tensor w = full({1, 3}, 0.5).requires_grad_();
  Tensor out = linear(ones({1, 3}), w, zeros({1}).requires_grad_());
  EXPECT_EQ(out.str(), "tensor([[1.5000]], grad_fn=<AddmmBackward0>)");
  EXPECT_EQ(w.str(), "tensor([[0.5000, 0.5000, 0.5000]], requires_grad=True)");
}

TEST(Autograd, NoGradGuardAndDetach) {
  Tensor w = ones({2}).requires_grad_();
  {
    NoGradGuard no_grad;
    Tensor y = w * 2;
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.grad_fn(), nullptr);
    {
      EnableGradGuard enable;
      EXPECT_TRUE((w * 2).requires_grad());
    }
    EXPECT_FALSE(autograd::is_grad_enabled());
  }
  EXPECT_TRUE(autograd::is_grad_enabled());
  Tensor d = (w * 2).detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  // data() shares the parameter's memory outside the graph: LibTorch's way to change it.
  w.data().mul_(3);
  expect_values<float>(w, {2}, {3.0f, 3.0f});
  EXPECT_FALSE(w.data().requires_grad());
  EXPECT_TRUE(w.requires_grad());
}

TEST(Autograd, ErrorsUsersKnow) {
  Tensor plain = ones({2});
  EXPECT_NE(error_of([&] {
              plain.sum().backward();
            }).find("element 0 of tensors does not require grad and does not have a grad_fn"),
            std::string::npos);
  Tensor w = ones({2}).requires_grad_();
  EXPECT_NE(error_of([&] {
              (w * 2).backward();
            }).find("grad can be implicitly created only for scalar outputs"),
            std::string::npos);
  Tensor y = (w * w).sum();
  y.backward();
  EXPECT_NE(
      error_of([&] { y.backward(); }).find("Trying to backward through the graph a second time"),
      std::string::npos);
  EXPECT_NE(error_of([&] {
              w.add_(1.0);
            }).find("a leaf Variable that requires grad is being used in an in-place operation"),
            std::string::npos);
  Tensor nonleaf = w * 2;
  EXPECT_NE(error_of([&] {
              nonleaf.requires_grad_(false);
            }).find("you can only change requires_grad flags of leaf variables"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              tensor({1, 2}).requires_grad_();
            }).find("Only Tensors of floating point and complex dtype can require gradients"),
            std::string::npos);
  Tensor out = zeros({2});
  EXPECT_NE(error_of([&] { add_out(out, w, w); }).find("out=... arguments don't support"),
            std::string::npos);
}

TEST(Autograd, RetainGraphAllowsASecondPass) {
  Tensor w = tensor({2.0}).requires_grad_();
  Tensor y = (w * w * w).sum();
  y.backward(Tensor(), /*retain_graph=*/true);
  y.backward();
  expect_close(w.grad(), {1}, {24});  // 2 * 3 w^2
}

// Nodes that save nothing (sum, mean, add, view) free nothing: a second backward without
// retain_graph works and accumulates, as in PyTorch.
TEST(Autograd, SecondBackwardThroughNodesThatSaveNothing) {
  Tensor x = tensor({1.0, 2.0, 3.0}, kFloat64).requires_grad_();
  Tensor y = (x + 1).mean();
  y.backward();
  y.backward();
  expect_close(x.grad(), {3}, {2.0 / 3, 2.0 / 3, 2.0 / 3}, 1e-12, 1e-12);
  x.mutable_grad() = Tensor();
  Tensor z = (x.view({3, 1}) + x).sum();  // [3, 3]: each x[i] appears 3 times in each role
  z.backward();
  z.backward();
  expect_close(x.grad(), {3}, {12, 12, 12}, 1e-12, 1e-12);
  Tensor w = (x * x).sum();  // MulBackward0 saves x: the second pass is refused
  w.backward();
  EXPECT_NE(error_of<Error>([&] { w.backward(); }).find("backward through the graph a second time"),
            std::string::npos);
}

TEST(Autograd, InPlaceChangeOfASavedTensorIsDetected) {
  Tensor w = tensor({1.0, 2.0}).requires_grad_();
  Tensor h = w * 2;
  Tensor y = h * h;  // saves h (version 0)
  h.add_(1.0);       // version 1
  EXPECT_EQ(h.version(), 1u);
  std::string msg = error_of([&] { y.sum().backward(); });
  EXPECT_NE(msg.find("modified by an inplace operation"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is at version 1; expected version 0"), std::string::npos) << msg;
}

TEST(Autograd, InPlaceOnNonLeafKeepsTheChain) {
  Tensor w = tensor({1.0, -2.0, 3.0}).requires_grad_();
  Tensor h = w * 2;
  h.mul_(tensor({2.0, -4.0, 6.0}));  // h = 2w * 2w with the second factor constant
  EXPECT_EQ(h.grad_fn()->name(), "MulBackward0");
  h.sum().backward();
  expect_close(w.grad(), {3}, {4, -8, 12});
  Tensor v = w * 1.0;
  v.view({3}).add_(1.0);  // through a view: v's history becomes CopySlices (inplace_view_test)
  EXPECT_EQ(v.grad_fn()->name(), "CopySlices");
}

TEST(Autograd, RetainGradOnNonLeaf) {
  Tensor w = tensor({1.0, 2.0}).requires_grad_();
  Tensor h = w * 3;
  h.retain_grad();
  EXPECT_TRUE(h.retains_grad());
  (h * h).sum().backward();
  expect_close(h.grad(), {2}, {6, 12});   // 2h
  expect_close(w.grad(), {2}, {18, 36});  // 2h * 3
}

TEST(Autograd, GradReturnsWithoutAccumulating) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_(), z = tensor({5.0}).requires_grad_();
  Tensor y = (x * x).sum();
  std::vector<Tensor> g = autograd::grad({y}, {x});
  expect_close(g[0], {2}, {2, 4});
  EXPECT_FALSE(x.grad().defined());
  Tensor y2 = (x * x).sum();
  EXPECT_NE(error_of([&] { autograd::grad({y2}, {z}); }).find("appears to not have been used"),
            std::string::npos);
  std::vector<Tensor> unused = autograd::grad({(x * 2).sum()}, {z}, {}, std::nullopt, false, true);
  EXPECT_FALSE(unused[0].defined());
}

TEST(Autograd, BroadcastGradientsAreReducedToTheInputShape) {
  Tensor b = tensor({1.0, 2.0, 3.0}).requires_grad_();
  (ones({4, 3}, kFloat64) * b).sum().backward();
  expect_close(b.grad(), {3}, {4, 4, 4});
}

TEST(Autograd, ToIsDifferentiableAcrossDtypes) {
  Tensor x = tensor({1.0, 2.0}, kFloat64).requires_grad_();
  Tensor y = x.to(kFloat32);
  EXPECT_EQ(y.grad_fn()->name(), "ToCopyBackward0");
  (y * y).sum().backward();
  EXPECT_EQ(x.grad().dtype(), kFloat64);  // the gradient comes back in the input's dtype
  expect_close(x.grad(), {2}, {2, 4});
  // An integer result cannot carry gradients (PyTorch: requires_grad=False).
  EXPECT_FALSE(x.to(kInt64).requires_grad());
}

TEST(Autograd, ToIsDifferentiableAcrossDevices) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x.cuda();
  (y * y).sum().backward();
  EXPECT_TRUE(x.grad().is_cpu());
  expect_close(x.grad(), {2}, {2, 4});
}

}  // namespace
}  // namespace ember::test
