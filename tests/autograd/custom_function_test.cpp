// Custom autograd functions (ember/custom_function.h) and IValue, the type of their saved_data:
// values worked by hand, on every device, and LibTorch's errors. tests/torch_api's
// autograd_functions.cpp runs LibTorch-style custom functions against LibTorch too.
#include <gtest/gtest.h>

#include "autograd/gradcheck.h"
#include "test_util.h"

namespace ember::test {
namespace {

using autograd::AutogradContext;
using autograd::variable_list;

// y = a * x^2 + c: a tensor input, a non-tensor input kept in saved_data, a saved input.
struct ScaledSquare : autograd::Function<ScaledSquare> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, double a, Tensor c) {
    ctx->saved_data["a"] = a;
    ctx->save_for_backward({x});
    return x * x * a + c;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const Tensor x = ctx->get_saved_variables()[0];
    const double a = ctx->saved_data["a"].toDouble();
    return {grads[0] * x * (2 * a), Tensor(), ctx->needs_input_grad(1) ? grads[0] : Tensor()};
  }
};

TEST(CustomFunction, ForwardBackwardOnEveryDevice) {
  for (Device device : all_devices()) {
    TensorOptions on(device);
    Tensor x = tensor({1.0, -2.0}, on).requires_grad_();
    Tensor c = tensor({0.5, 0.5}, on).requires_grad_();
    Tensor y = ScaledSquare::apply(x, 3.0, c);
    expect_close(y.cpu(), {2}, {3.5, 12.5});
    EXPECT_EQ(y.grad_fn()->name(),
              "torch::autograd::CppNode<ember::test::(anonymous namespace)::ScaledSquare>");
    EXPECT_EQ(y.grad_fn()->next_functions().size(), 2u);  // the tensor inputs only
    (y * tensor({1.0, 10.0}, on)).sum().backward();
    expect_close(x.grad().cpu(), {2}, {6, -120});
    expect_close(c.grad().cpu(), {2}, {1, 10});
  }
}

TEST(CustomFunction, SecondDerivativeAndGradcheckThroughIt) {
  gradcheck("custom ScaledSquare",
            [](const std::vector<Tensor>& x) { return ScaledSquare::apply(x[0], 1.5, x[1]); },
            {tensor({0.3, -0.7, 1.1}, kFloat64), tensor({0.2, 0.1, 0.4}, kFloat64)});
}

TEST(CustomFunction, WithoutGradNoNodeIsRecorded) {
  Tensor x = tensor({1.0}).requires_grad_();
  EXPECT_FALSE(ScaledSquare::apply(tensor({1.0}), 2.0, tensor({0.0})).requires_grad());
  NoGradGuard no_grad;
  Tensor y = ScaledSquare::apply(x, 2.0, tensor({0.0}));
  EXPECT_FALSE(y.requires_grad());
  expect_close(y, {1}, {2});
}

struct WrongCount : autograd::Function<WrongCount> {
  static Tensor forward(AutogradContext*, const Tensor& x, int64_t) { return x * 2; }
  static variable_list backward(AutogradContext*, variable_list grads) { return {grads[0]}; }
};
struct GradForNumber : autograd::Function<GradForNumber> {
  static Tensor forward(AutogradContext*, const Tensor& x, int64_t) { return x * 2; }
  static variable_list backward(AutogradContext*, variable_list grads) {
    return {grads[0], grads[0]};
  }
};
struct ExtraUndefined : autograd::Function<ExtraUndefined> {
  static Tensor forward(AutogradContext*, const Tensor& x) { return x * 2; }
  static variable_list backward(AutogradContext*, variable_list grads) {
    return {grads[0] * 2, Tensor(), Tensor()};
  }
};

TEST(CustomFunction, BackwardReturnsOneGradientPerArgument) {
  Tensor x = tensor({1.0}).requires_grad_();
  EXPECT_NE(error_of([&] {
              WrongCount::apply(x, 3).backward();
            }).find("returned an incorrect number of gradients (expected 2, got 1)"),
            std::string::npos);
  EXPECT_NE(error_of([&] { GradForNumber::apply(x, 3).backward(); })
                .find("defined at position 2, but the corresponding forward input was not a "
                      "Variable"),
            std::string::npos);
  ExtraUndefined::apply(x).backward();  // extra undefined gradients are dropped
  expect_close(x.grad(), {1}, {2});
}

struct SavesOutput : autograd::Function<SavesOutput> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x) {
    Tensor y = x.exp();
    ctx->save_for_backward({y});
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    return {grads[0] * ctx->get_saved_variables()[0]};
  }
};

TEST(CustomFunction, SavedTensorsAreVersionCheckedAndFreed) {
  Tensor x = tensor({0.0, 1.0}).requires_grad_();
  Tensor y = SavesOutput::apply(x);
  y.sum().backward(Tensor(), /*retain_graph=*/true);
  expect_close(x.grad(), {2}, {1, std::exp(1.0)});
  y.sum().backward();
  EXPECT_NE(error_of([&] { y.sum().backward(); }).find("a second time"), std::string::npos);

  Tensor z = SavesOutput::apply(x);
  {
    NoGradGuard no_grad;
    z.add_(1.0);
  }
  EXPECT_NE(
      error_of([&] { z.sum().backward(); }).find("which is output 0 of torch::autograd::CppNode<"),
      std::string::npos);
  AutogradContext ctx;
  EXPECT_NE(error_of([&] { ctx.get_saved_variables(); }).find("in backward only"),
            std::string::npos);
}

struct Halves : autograd::Function<Halves> {
  static variable_list forward(AutogradContext* ctx, const Tensor& x) {
    ctx->set_materialize_grads(false);
    Tensor index = x.argmax();
    ctx->mark_non_differentiable({index});
    return {x * 0.5, index};
  }
  static variable_list backward(AutogradContext*, variable_list grads) {
    EXPECT_FALSE(grads[1].defined());  // not materialised
    return {grads[0] * 0.5};
  }
};

TEST(CustomFunction, NonDifferentiableOutputsAndUnmaterialisedGrads) {
  Tensor x = tensor({1.0, 4.0, 2.0}).requires_grad_();
  variable_list out = Halves::apply(x);
  EXPECT_TRUE(out[0].requires_grad());
  EXPECT_FALSE(out[1].requires_grad());
  EXPECT_EQ(out[1].item<int64_t>(), 1);
  out[0].sum().backward();
  expect_close(x.grad(), {3}, {0.5, 0.5, 0.5});
}

struct Identity : autograd::Function<Identity> {
  static Tensor forward(AutogradContext*, const Tensor& x) { return x; }
  static variable_list backward(AutogradContext*, variable_list grads) { return {grads[0] * 3}; }
};

TEST(CustomFunction, AnInputReturnedAsItIsStaysItself) {
  Tensor x = tensor({2.0}).requires_grad_();
  Tensor y = Identity::apply(x);
  EXPECT_FALSE(y.is_same(x));  // an alias carries the new history; x stays a leaf
  EXPECT_TRUE(x.is_leaf());
  y.backward();
  expect_close(x.grad(), {1}, {3});
}

TEST(IValue, KindsAndConversions) {
  IValue none, d(2.5), i(int64_t{7}), small(3), b(true), s("name"), t(tensor({1.0}));
  EXPECT_TRUE(none.isNone());
  EXPECT_EQ(d.toDouble(), 2.5);
  EXPECT_EQ(i.toInt(), 7);
  EXPECT_EQ(small.toInt(), 3);
  EXPECT_TRUE(b.toBool());
  EXPECT_EQ(s.toStringRef(), "name");
  EXPECT_TRUE(t.isTensor());
  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}).toIntVector(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue(Scalar(4)).toInt(), 4);
  EXPECT_EQ(d.toScalar().toDouble(), 2.5);
  EXPECT_EQ(d.tagKind(), "Double");
  EXPECT_NE(error_of([&] { d.toInt(); }).find("Expected Int but got Double"), std::string::npos);
}

}  // namespace
}  // namespace ember::test
