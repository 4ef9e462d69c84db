// The activations with parameters and their compositions (ops.h, nn/functional/activation.h):
// values, gradients and node names from PyTorch 1.13 at points on both sides of each branch and
// on its edge, gradchecks away from the edges, and the modules' options and printing.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

namespace F = nn::functional;
using test::expect_close;

struct Golden {
  const char* name;
  std::function<Tensor(const Tensor&)> f;
  const char* grad_fn;
  std::vector<double> values, grads;  // f(x) and d sum(f(x)) / dx
};

// x = [-2, -0.5, 0, 0.25, 0.5, 1, 3] in float64; the parameters put an edge on one of them.
// Generated with torch 1.13 (torch._C._nn.elu for the scale and input_scale arguments).
const std::vector<Golden>& goldens() {
  static const std::vector<Golden> cases = {
      {"leaky_relu(x, 0.2)",
       [](const Tensor& x) { return leaky_relu(x, 0.2); },
       "LeakyReluBackward0",
       {-0.4, -0.1, 0, 0.25, 0.5, 1, 3},
       {0.2, 0.2, 0.2, 1, 1, 1, 1}},
      {"elu(x, 0.5, 2, 1.5)",
       [](const Tensor& x) { return elu(x, 0.5, 2, 1.5); },
       "EluBackward0",
       {-0.950212931632136, -0.5276334472589853, 0, 0.5, 1, 2, 6},
       {0.07468060255179591, 0.708549829111522, 1.5, 2, 2, 2, 2}},
      {"selu(x)",
       [](const Tensor& x) { return selu(x); },
       "EluBackward0",
       {-1.5201664685956948, -0.6917581878028713, 0, 0.2626752468388701, 0.5253504936777402,
        1.0507009873554805, 3.1521029620664414},
       {0.2379328722516818, 1.0663411530445053, 1.7580993408473766, 1.0507009873554805,
        1.0507009873554805, 1.0507009873554805, 1.0507009873554805}},
      {"celu(x, 2)",
       [](const Tensor& x) { return celu(x, 2); },
       "CeluBackward0",
       {-1.2642411176571153, -0.44239843385719024, 0, 0.25, 0.5, 1, 3},
       {0.36787944117144233, 0.7788007830714049, 1, 1, 1, 1, 1}},
      {"hardtanh(x, -0.5, 1)",
       [](const Tensor& x) { return hardtanh(x, -0.5, 1); },
       "HardtanhBackward0",
       {-0.5, -0.5, 0, 0.25, 0.5, 1, 1},
       {0, 0, 1, 1, 1, 0, 0}},
      {"relu6(x * 3)",
       [](const Tensor& x) { return relu6(x * 3); },
       "HardtanhBackward0",
       {0, 0, 0, 0.75, 1.5, 3, 6},
       {0, 0, 0, 3, 3, 3, 0}},
      {"softplus(x, 2, 1)",
       [](const Tensor& x) { return softplus(x, 2, 1); },
       "SoftplusBackward0",
       {0.009074963958904869, 0.15663084375911143, 0.34657359027997264, 0.48703849209005334,
        0.6566308437591114, 1, 3},
       {0.017986209962091555, 0.2689414213699951, 0.5, 0.6224593312018546, 0.7310585786300049, 1,
        1}},
      {"threshold(x, 0.25, -7)",
       [](const Tensor& x) { return threshold(x, 0.25, -7); },
       "ThresholdBackward0",
       {-7, -7, -7, -7, 0.5, 1, 3},
       {0, 0, 0, 0, 1, 1, 1}},
      {"softshrink(x, 0.5)",
       [](const Tensor& x) { return softshrink(x, 0.5); },
       "SoftshrinkBackward0",
       {-1.5, 0, 0, 0, 0, 0.5, 2.5},
       {1, 0, 0, 0, 0, 1, 1}},
      {"hardshrink(x, 0.5)",
       [](const Tensor& x) { return x.hardshrink(0.5); },
       "HardshrinkBackward0",
       {-2, 0, 0, 0, 0, 1, 3},
       {1, 0, 0, 0, 0, 1, 1}},
      {"F::softsign(x)",
       [](const Tensor& x) { return F::softsign(x); },
       "DivBackward0",
       {-0.6666666666666666, -0.3333333333333333, 0, 0.2, 0.3333333333333333, 0.5, 0.75},
       {0.1111111111111111, 0.4444444444444444, 1, 0.64, 0.4444444444444444, 0.25, 0.0625}},
      {"F::tanhshrink(x)",
       [](const Tensor& x) { return F::tanhshrink(x); },
       "SubBackward0",
       {-1.035972419924183, -0.03788284273999026, 0, 0.005081337596290869, 0.03788284273999026,
        0.23840584404423515, 2.0049452463132695},
       {0.9293491751468356, 0.2135522670340726, 0, 0.05998515119362202, 0.2135522670340726,
        0.5800256583859739, 0.9901339628345598}},
  };
  return cases;
}

TEST(Activations, ValuesGradientsAndNodesAsPyTorch) {
  for (const Golden& c : goldens()) {
    SCOPED_TRACE(c.name);
    Tensor x = tensor({-2.0, -0.5, 0.0, 0.25, 0.5, 1.0, 3.0}, kFloat64).requires_grad_();
    Tensor y = c.f(x);
    EXPECT_EQ(y.grad_fn()->name(), c.grad_fn);
    expect_close(y, {7}, c.values, 1e-12, 1e-12);
    y.sum().backward();
    expect_close(x.grad(), {7}, c.grads, 1e-12, 1e-12);
  }
}

// float32 computes in float with the parameters rounded to float, as PyTorch's kernels.
TEST(Activations, Float32AgreesWithFloat64) {
  Tensor x = linspace(-4, 4, 41, kFloat32);
  for (const Golden& c : goldens()) {
    SCOPED_TRACE(c.name);
    Tensor expected = c.f(x.to(kFloat64));
    Tensor got = c.f(x);
    EXPECT_EQ(got.scalar_type(), kFloat32);
    expect_close(got, {41}, expected.to_vector<double>(), 1e-6, 1e-6);
  }
}

TEST(Activations, FormsAgree) {
  Tensor x = tensor({-2.0, -0.5, 0.0, 0.5, 3.0});
  Tensor expected = leaky_relu(x, 0.2);
  EXPECT_TRUE(equal(x.leaky_relu(0.2), expected));
  Tensor out = empty({5});
  leaky_relu_out(out, x, 0.2);
  EXPECT_TRUE(equal(out, expected));
  Tensor y = x.clone();
  Tensor& same = leaky_relu_(y, 0.2);
  EXPECT_TRUE(same.is_same(y));
  EXPECT_TRUE(equal(y, expected));
  Tensor z = x.clone();
  z.threshold_(0, 9);
  EXPECT_TRUE(equal(z, threshold(x, 0, 9)));
  Tensor w = x.clone();
  relu6_(w);
  EXPECT_TRUE(equal(w, hardtanh(x, 0, 6)));
  // LibTorch's defaults: leaky_relu 0.01, hardtanh [-1, 1], softplus (1, 20), shrinks 0.5.
  EXPECT_TRUE(equal(leaky_relu(x), leaky_relu(x, 0.01)));
  EXPECT_TRUE(equal(hardtanh(x), clamp(x, -1, 1)));
  EXPECT_TRUE(equal(softplus(x), softplus(x, 1, 20)));
  EXPECT_TRUE(equal(hardshrink(x), hardshrink(x, 0.5)));
  EXPECT_TRUE(equal(elu(x), celu(x)));
}

TEST(Activations, IntegerInputs) {
  // hardtanh (so relu6) and threshold keep integer dtypes, as PyTorch's; the rest refuse them.
  Tensor x = tensor({-3, 1, 8}, kInt64);
  test::expect_values<int64_t>(relu6(x), {3}, {0, 1, 6});
  test::expect_values<int64_t>(threshold(x, 1, 5), {3}, {5, 5, 8});
  EXPECT_THROW(leaky_relu(x), TypeError);
  EXPECT_THROW(hardtanh(tensor({true})), TypeError);
  // An integer tensor's limits are truncated first, as PyTorch's (torch 1.13: [0, 1, 1] and
  // [-2, 1, 5]); only a limit below 0 after that is refused for uint8.
  Tensor bytes = tensor({0, 3, 200}, kByte);
  test::expect_values<uint8_t>(hardtanh(bytes, -0.5, 1.7), {3}, {0, 1, 1});
  test::expect_values<int64_t>(hardtanh(x, -2.9, 5.9), {3}, {-2, 1, 5});
  EXPECT_THROW(hardtanh(bytes, -1, 1), Error);
  EXPECT_EQ(hardtanh(empty({2, 0}, kByte), -0.5, 1).sizes(), IntArrayRef({2, 0}));
}

TEST(Activations, RefusesAsPyTorch) {
  Tensor x = ones({2, 3});
  EXPECT_EQ(test::error_of([&] {
              softshrink(x, -1);
            }).rfind("lambda must be greater or equal to 0, but found to be -1.", 0),
            0u);
  EXPECT_NE(test::error_of([&] { celu(x, 0); }).find("alpha cannot be 0 for CELU"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              F::glu(ones({3}));
            }).find("Halving dimension must be even, but dimension 0 is size 3"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              F::glu(x, -3);
            }).find("Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              F::prelu(x, ones({2}));
            }).find("Found parameter numbers = 2 and channel size = 3."),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              nn::Hardtanh(nn::HardtanhOptions().min_val(2).max_val(1));
            }).find("max_val must be greater than min_val"),
            std::string::npos);
}

TEST(Activations, GluAndPreluAsPyTorch) {
  Tensor x = tensor({1.0, -2.0, 3.0, 0.5, 0.0, -1.0, 2.0, 4.0}, kFloat64).reshape({2, 4});
  x.requires_grad_();
  Tensor y = F::glu(x);
  expect_close(y, {2, 2}, {0.9525741268224334, -1.2449186624037092, 0, -0.9820137900379085});
  y.sum().backward();
  expect_close(x.grad(), {2, 4},
               {0.9525741268224334, 0.6224593312018546, 0.045176659730912, -0.470007424403189,
                0.8807970779778823, 0.9820137900379085, 0, -0.017662706213291107});

  Tensor a = tensor({1.0, -2.0, 3.0, -0.5, -1.0, 2.0}, kFloat64).reshape({2, 3});
  a.requires_grad_();
  Tensor w = tensor({0.25, 0.5, -1.0}, kFloat64).requires_grad_();
  Tensor p = F::prelu(a, w);
  expect_close(p, {2, 3}, {1, -1, 3, -0.125, -0.5, 2});
  p.sum().backward();
  expect_close(a.grad(), {2, 3}, {1, 0.5, 1, 0.25, 0.5, 1});
  expect_close(w.grad(), {3}, {-0.5, -3, 0});
  EXPECT_TRUE(equal(a.prelu(w), p));
}

// Cases the differential test against LibTorch 1.13 found: the shrinks pass a NaN's gradient
// (as LibTorch's scalar code and CUDA kernels; its vector loop gives 0), and exp2's float16
// gradient multiplies grad by the result before ln 2, so it overflows to inf where LibTorch's does.
TEST(Activations, EdgeGradientsAsLibTorch) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x = tensor({nan, -2.0, 0.25, 3.0}, kFloat64).requires_grad_();
  (hardshrink(x, 0.5) + softshrink(x, 0.5)).sum().backward();
  expect_close(x.grad(), {4}, {2, 2, 0, 2});
  Tensor h = tensor({15.5}, kFloat16).requires_grad_();  // 2^15.5 = 46341, 1.5 * that > 65504
  exp2(h).backward(tensor({1.5}, kFloat16));
  EXPECT_TRUE(std::isinf(h.grad().item<double>()));
}

// Points clear of every edge (0, the thresholds and the bounds) by more than gradcheck's step.
TEST(GradcheckActivations, EveryActivation) {
  const Tensor x = tensor({-2.0, -1.2, -0.3, 0.4, 0.9, 2.5}, kFloat64).reshape({2, 3});
  for (Device device : test::all_devices()) {
    for (const Golden& c : goldens()) {
      auto f = c.f;
      test::gradcheck(
          c.name, [f](const std::vector<Tensor>& in) { return f(in[0]); }, {x}, device);
    }
    test::gradcheck(
        "glu", [](const std::vector<Tensor>& in) { return F::glu(in[0], F::GLUFuncOptions(0)); },
        {x}, device);
    test::gradcheck(
        "prelu", [](const std::vector<Tensor>& in) { return F::prelu(in[0], in[1]); },
        {x, tensor({0.25, -0.5, 2.0}, kFloat64)}, device);
  }
}

// Under autograd the in-place forms write the result and take over its history.
TEST(Activations, InPlaceUnderAutograd) {
  Tensor x = tensor({-2.0, 0.5, 3.0}, kFloat64).requires_grad_();
  Tensor y = x * 1;
  F::elu(y, F::ELUFuncOptions().alpha(0.5).inplace(true));
  expect_close(y, {3}, {0.5 * std::expm1(-2.0), 0.5, 3});
  y.sum().backward();
  expect_close(x.grad(), {3}, {0.5 * std::exp(-2.0), 1, 1});
}

TEST(ActivationModules, ForwardAsTheirFunctions) {
  Tensor x = tensor({-2.0, -0.5, 0.0, 0.5, 3.0});
  EXPECT_TRUE(
      equal(nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2))(x), leaky_relu(x, 0.2)));
  EXPECT_TRUE(equal(nn::ELU(nn::ELUOptions().alpha(0.5))(x), elu(x, 0.5)));
  EXPECT_TRUE(equal(nn::SELU()(x), selu(x)));
  EXPECT_TRUE(equal(nn::CELU(nn::CELUOptions().alpha(2))(x), celu(x, 2)));
  EXPECT_TRUE(
      equal(nn::Hardtanh(nn::HardtanhOptions().min_val(-0.5).max_val(2))(x), hardtanh(x, -0.5, 2)));
  EXPECT_TRUE(equal(nn::ReLU6()(x * 3), relu6(x * 3)));
  EXPECT_TRUE(
      equal(nn::Softplus(nn::SoftplusOptions().beta(2).threshold(1))(x), softplus(x, 2, 1)));
  EXPECT_TRUE(equal(nn::Threshold(0.1, 20)(x), threshold(x, 0.1, 20)));
  EXPECT_TRUE(equal(nn::Softshrink(0.25)(x), softshrink(x, 0.25)));
  EXPECT_TRUE(equal(nn::Hardshrink(0.25)(x), hardshrink(x, 0.25)));
  EXPECT_TRUE(equal(nn::Softsign()(x), F::softsign(x)));
  EXPECT_TRUE(equal(nn::Tanhshrink()(x), F::tanhshrink(x)));
  EXPECT_TRUE(equal(nn::Hardsigmoid()(x), hardsigmoid(x)));
  EXPECT_TRUE(equal(nn::Hardswish()(x), hardswish(x)));
  Tensor images = arange(8, kFloat32).reshape({1, 2, 2, 2});
  EXPECT_TRUE(equal(nn::Softmax2d()(images), softmax(images, 1)));
  EXPECT_TRUE(equal(nn::GLU(0)(x.narrow(0, 0, 4)), glu(x.narrow(0, 0, 4), 0)));
  // An inplace module writes its input.
  Tensor y = x.clone();
  nn::LeakyReLU(nn::LeakyReLUOptions().inplace(true))(y);
  EXPECT_TRUE(equal(y, leaky_relu(x)));
}

// rrelu outside training is leaky_relu with the mean slope (torch 1.13's values); in training
// each element <= 0 gets its own slope in [lower, upper], which is also its gradient.
TEST(Activations, RReLU) {
  Tensor x = tensor({-2.0, -0.5, 0.0, 1.5}, kFloat64);
  expect_close(rrelu(x, 0.1, 0.3, false), {4}, {-0.4, -0.1, 0.0, 1.5});
  expect_close(F::rrelu(x), {4}, {-0.4583333333333333, -0.11458333333333333, 0.0, 1.5});
  EXPECT_NE(test::error_of([&] {
              rrelu(x, 0.5, 0.1);
            }).find("Lower bound should be less than or equal to the upper bound"),
            std::string::npos);

  manual_seed(3);
  Tensor leaf = randn({1000}, kFloat64).requires_grad_();
  manual_seed(7);
  Tensor out = F::rrelu(leaf, F::RReLUFuncOptions().lower(0.1).upper(0.3).training(true));
  out.sum().backward();
  const std::vector<double> in = leaf.detach().to_vector<double>(),
                            values = out.detach().to_vector<double>(),
                            grads = leaf.grad().to_vector<double>();
  double smallest = 1, largest = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] > 0) {
      EXPECT_EQ(values[i], in[i]);
      EXPECT_EQ(grads[i], 1.0);
      continue;
    }
    EXPECT_DOUBLE_EQ(values[i], in[i] * grads[i]);  // the slope scales value and gradient
    smallest = std::min(smallest, grads[i]);
    largest = std::max(largest, grads[i]);
  }
  EXPECT_GE(smallest, 0.1);
  EXPECT_LE(largest, 0.3);
  EXPECT_GT(largest - smallest, 0.15);  // drawn, not one slope
  // manual_seed replays the draws; the in-place form writes its input.
  manual_seed(7);
  Tensor again = leaf.detach().clone();
  rrelu_(again, 0.1, 0.3, true);
  EXPECT_TRUE(equal(again, out.detach()));
  // In place on a non-leaf, the gradient is the slope too; x == 0 draws one, as ATen's x <= 0.
  Tensor zero = zeros({8}, kFloat32).requires_grad_();
  Tensor through = zero * 1;
  rrelu_(through, 0.1, 0.3, true);
  through.sum().backward();
  EXPECT_EQ(through.scalar_type(), kFloat32);
  EXPECT_GE(zero.grad().min().item<double>(), 0.1 - 1e-7);
  EXPECT_LE(zero.grad().max().item<double>(), 0.3 + 1e-7);
  // Outside training in place: leaky_relu_ with the mean slope.
  Tensor mean_slope = x.clone();
  rrelu_(mean_slope, 0.1, 0.3);
  expect_close(mean_slope, {4}, {-0.4, -0.1, 0.0, 1.5});
  EXPECT_THROW(rrelu(tensor({-1, 2}), 0.1, 0.3, true), TypeError);
}

TEST(ActivationModules, RReLUDrawsOnlyInTraining) {
  nn::RReLU rrelu_module(nn::RReLUOptions().lower(0.2).upper(0.4));
  Tensor x = -ones({64});
  Tensor trained = rrelu_module(x);
  EXPECT_GT(trained.max().item<double>() - trained.min().item<double>(), 0.05);
  rrelu_module->eval();
  EXPECT_TRUE(equal(rrelu_module(x), full({64}, -0.3, kFloat32)));
  Tensor y = x.clone();
  nn::RReLU(nn::RReLUOptions().inplace(true))(y);
  EXPECT_LT(y.max().item<double>(), -0.1);  // written in place, with slopes in [1/8, 1/3]
  EXPECT_GT(y.min().item<double>(), -0.34);
}

TEST(ActivationModules, PReLUHasLearnableSlopes) {
  nn::PReLU prelu(nn::PReLUOptions().num_parameters(3).init(0.1));
  ASSERT_EQ(prelu->named_parameters().size(), 1u);
  EXPECT_EQ(prelu->named_parameters()[0].key(), "weight");
  test::expect_close(prelu->weight, {3}, {0.1, 0.1, 0.1});
  Tensor x = -ones({2, 3, 2});
  prelu(x).sum().backward();
  test::expect_close(prelu->weight.grad(), {3}, {-4, -4, -4});
  // clone() copies the slopes into a module of its own (reset() registers them).
  auto copy = std::dynamic_pointer_cast<nn::PReLUImpl>(prelu->clone());
  ASSERT_TRUE(copy);
  EXPECT_FALSE(copy->weight.is_same(prelu->weight));
  EXPECT_TRUE(equal(copy->weight, prelu->weight));
}

template <class Module>
std::string activation_printed(const Module& module) {
  std::ostringstream os;
  os << module;
  return os.str();
}

TEST(ActivationModules, PrintAsLibTorch) {
  EXPECT_EQ(activation_printed(nn::LeakyReLU()), "torch::nn::LeakyReLU(negative_slope=0.01)");
  EXPECT_EQ(
      activation_printed(nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true))),
      "torch::nn::LeakyReLU(negative_slope=0.2, inplace=true)");
  EXPECT_EQ(activation_printed(nn::ELU(nn::ELUOptions().alpha(0.5).inplace(true))),
            "torch::nn::ELU(alpha=0.5, inplace=true)");
  EXPECT_EQ(activation_printed(nn::SELU()), "torch::nn::SELU()");
  EXPECT_EQ(activation_printed(nn::SELU(true)), "torch::nn::SELU(inplace=true)");
  EXPECT_EQ(activation_printed(nn::CELU()), "torch::nn::CELU(alpha=1)");
  EXPECT_EQ(activation_printed(nn::Hardtanh()), "torch::nn::Hardtanh(min_val=-1, max_val=1)");
  EXPECT_EQ(activation_printed(nn::ReLU6(true)), "torch::nn::ReLU6(inplace=true)");
  EXPECT_EQ(activation_printed(nn::Softplus()), "torch::nn::Softplus(beta=1, threshold=20)");
  EXPECT_EQ(activation_printed(nn::Threshold(nn::ThresholdOptions(0.1, 20).inplace(true))),
            "torch::nn::Threshold(threshold=0.1, value=20, inplace=true)");
  EXPECT_EQ(activation_printed(nn::Softshrink()), "torch::nn::Softshrink(0.5)");
  EXPECT_EQ(activation_printed(nn::Hardshrink(0.25)), "torch::nn::Hardshrink(0.25)");
  EXPECT_EQ(activation_printed(nn::GLU()), "torch::nn::GLU(dim=-1)");
  EXPECT_EQ(activation_printed(nn::PReLU(nn::PReLUOptions().num_parameters(3))),
            "torch::nn::PReLU(num_parameters=3)");
  EXPECT_EQ(activation_printed(nn::Softsign()), "torch::nn::Softsign()");
  EXPECT_EQ(activation_printed(nn::Tanhshrink()), "torch::nn::Tanhshrink()");
  EXPECT_EQ(activation_printed(nn::Softmax2d()), "torch::nn::Softmax2d()");
  EXPECT_EQ(activation_printed(nn::RReLU()), "torch::nn::RReLU(lower=0.125, upper=0.333333)");
  EXPECT_EQ(activation_printed(nn::RReLU(nn::RReLUOptions().lower(0.2).upper(0.4).inplace(true))),
            "torch::nn::RReLU(lower=0.2, upper=0.4, inplace=true)");
}

}  // namespace
}  // namespace ember
