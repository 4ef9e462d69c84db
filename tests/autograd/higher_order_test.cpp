// Higher-order gradients (create_graph): the backward pass recorded as a graph of its own, with
// values worked by hand. (formulas_test.cpp checks every formula's second derivative against
// finite differences.)
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/tensor_impl.h"
#include "test_util.h"

namespace ember::test {
namespace {

TEST(HigherOrder, GradOfGradOfACube) {
  for (Device device : all_devices()) {
    Tensor x = tensor({2.0, -1.0}, TensorOptions().device(device)).requires_grad_();
    Tensor g = autograd::grad({(x * x * x).sum()}, {x}, {}, std::nullopt, true)[0];
    EXPECT_TRUE(g.requires_grad());
    expect_close(g.cpu(), {2}, {12, 3});  // 3 x^2
    Tensor gg = autograd::grad({g.sum()}, {x}, {}, std::nullopt, true)[0];
    expect_close(gg.cpu(), {2}, {12, -6});                                // 6 x
    expect_close(autograd::grad({gg.sum()}, {x})[0].cpu(), {2}, {6, 6});  // third order
  }
}

TEST(HigherOrder, BackwardWithCreateGraphLeavesADifferentiableGrad) {
  // d/dt sin(t) e^t = e^t (sin t + cos t); d2/dt2 = 2 e^t cos t.
  Tensor t = tensor({0.5, 1.0}).requires_grad_();
  (t.sin() * t.exp()).sum().backward({}, std::nullopt, /*create_graph=*/true);
  const double e5 = std::exp(0.5), e1 = std::exp(1.0);
  expect_close(t.grad(), {2},
               {e5 * (std::sin(0.5) + std::cos(0.5)), e1 * (std::sin(1.0) + std::cos(1.0))});
  ASSERT_TRUE(t.grad().requires_grad());
  Tensor first = t.grad();
  t.mutable_grad() = Tensor();
  first.sum().backward();
  expect_close(t.grad(), {2}, {2 * e5 * std::cos(0.5), 2 * e1 * std::cos(1.0)});
}

TEST(HigherOrder, SavedOutputsAndInputsKeepTheirHistory) {
  // exp saves its result, whose grad_fn is the saving node itself; mul saves its inputs.
  Tensor x = tensor({0.25}).requires_grad_();
  Tensor y = tensor({3.0}).requires_grad_();
  Tensor g = autograd::grad({x.exp() * y}, {x}, {}, std::nullopt, true)[0];  // y e^x
  std::vector<Tensor> second = autograd::grad({g}, {x, y});
  expect_close(second[0], {1}, {3 * std::exp(0.25)});
  expect_close(second[1], {1}, {std::exp(0.25)});
}

TEST(HigherOrder, GradientPenaltyTrainsThroughTheGradient) {
  // The WGAN-GP idiom: || d out / d in ||^2 as a loss on the weights. out = w . in^2, so
  // d out / d in = 2 w in and the penalty's gradient in w is 8 w in^2.
  Tensor w = tensor({1.0, -2.0}).requires_grad_();
  Tensor in = tensor({0.5, 3.0}).requires_grad_();
  Tensor g = autograd::grad({(w * in * in).sum()}, {in}, {}, std::nullopt, true)[0];
  (g * g).sum().backward();
  expect_close(w.grad(), {2}, {8 * 1.0 * 0.25, 8 * -2.0 * 9.0});
}

TEST(HigherOrder, BackwardInputsAccumulateOnlyThere) {
  Tensor a = tensor({3.0}).requires_grad_(), b = tensor({4.0}).requires_grad_();
  Tensor ab = a * b;
  (ab * b).backward({}, std::nullopt, false, TensorList{a, ab});
  expect_close(a.grad(), {1}, {16});
  expect_close(ab.grad(), {1}, {4});  // a non-leaf named in inputs gets its .grad too
  EXPECT_FALSE(b.grad().defined());
  EXPECT_NE(error_of([&] {
              (a * 2).backward({}, std::nullopt, false, TensorList{});
            }).find("cannot be empty"),
            std::string::npos);
}

TEST(HigherOrder, RetainGraphDefaultsToCreateGraph) {
  Tensor x = tensor({1.5}).requires_grad_();
  Tensor y = x.exp();
  autograd::grad({y}, {x}, {}, std::nullopt, true);
  expect_close(autograd::grad({y}, {x})[0], {1}, {std::exp(1.5)});  // the graph was kept
  EXPECT_NE(error_of([&] { autograd::grad({y}, {x}); }).find("a second time"), std::string::npos);
}

TEST(HigherOrder, GradWithCreateGraphMakesNoReferenceCycle) {
  // .grad holds a graph that reaches the leaf only through its AccumulateGrad, which holds the
  // leaf weakly: dropping the leaf frees it (PyTorch warns of a leak here; ember has none).
  std::weak_ptr<detail::TensorImpl> weak;
  {
    Tensor x = tensor({2.0}).requires_grad_();
    weak = detail::impl_ptr_of(x);
    (x * x * x).sum().backward({}, std::nullopt, true);
    EXPECT_TRUE(x.grad().requires_grad());
  }
  EXPECT_TRUE(weak.expired());
}

}  // namespace
}  // namespace ember::test
