// Area 9 (issue 23): every activation of torch::nn as LibTorch's C++ frontend has it: the ATen
// functions with their Scalar defaults and in-place forms, the F:: forms with *FuncOptions, the
// modules with their options and printing, and the nodes autograd records.
#include <string>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;
namespace nn = torch::nn;

using torch_api::printed;

// Points on both sides of 0 and of the default thresholds, and on the edges themselves.
torch::Tensor points() { return torch::tensor({-3.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 7.0}); }

void aten_functions() {
  torch::Tensor x = points();
  SHOW(torch::leaky_relu(x));
  SHOW(torch::leaky_relu(x, 0.2));
  SHOW(torch::elu(x));
  SHOW(torch::elu(x, 0.5, 2, 1.5));
  SHOW(torch::selu(x));
  SHOW(torch::celu(x, 2));
  SHOW(torch::hardtanh(x));
  SHOW(torch::hardtanh(x, -0.5, 0.5));
  SHOW(torch::relu6(x));
  SHOW(torch::softplus(x));
  SHOW(torch::softplus(x, 2, 1));
  SHOW(torch::rrelu(x));  // outside training: leaky_relu with the mean slope
  SHOW(torch::rrelu(x, 0.1, 0.3));
  torch::Tensor z = x.clone();
  SHOW(torch::rrelu_(z, 0.1, 0.3));
  SHOW(torch::threshold(x, 0.25, -7));
  SHOW(torch::softshrink(x));
  SHOW(torch::hardshrink(x, 1));
  SHOW(x.hardshrink());
  SHOW(torch::glu(torch::arange(8, torch::kFloat).reshape({2, 4})));
  SHOW(torch::glu(torch::arange(8, torch::kFloat).reshape({2, 4}), 0));
  SHOW(torch::prelu(x.reshape({2, 4}), torch::full({4}, 0.5).mul(torch::arange(4))));
  SHOW(x.reshape({1, 8}).prelu(torch::full({1}, 0.25)));
  SHOW(torch::relu6(torch::tensor({-3, 2, 9}, torch::kLong)));
  SHOW(torch::threshold(torch::tensor({-3, 2, 9}, torch::kLong), 2, 5));

  torch::Tensor y = x.clone();
  SHOW(torch::leaky_relu_(y, 0.5));
  SHOW(torch::elu_(y));
  SHOW(torch::hardtanh_(y, -0.25, 2));
  SHOW(torch::threshold_(y, 0, 1));
  SHOW(torch::relu6_(y));
  SHOW(torch::selu_(y));
  SHOW(torch::celu_(y, 0.5));
  torch::Tensor out = torch::empty({8});
  SHOW(torch::softplus_out(out, x, 1, 2));
  SHOW(torch::leaky_relu_out(out, x));

  SHOW_THROWS("lambda must be greater or equal to 0", torch::softshrink(x, -1));
  SHOW_THROWS("alpha cannot be 0 for CELU", torch::celu(x, 0));
  SHOW_THROWS("Lower bound should be less than or equal to the upper bound",
              torch::rrelu(x, 0.5, 0.1));
  SHOW_THROWS("Halving dimension must be even", torch::glu(torch::ones({3})));
  SHOW_THROWS("Mismatch of parameter numbers and input channel size",
              torch::prelu(torch::ones({2, 3}), torch::ones({2})));
}

void functional_forms() {
  torch::Tensor x = points();
  SHOW(F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.2)));
  SHOW(F::elu(x, F::ELUFuncOptions().alpha(0.5)));
  SHOW(F::selu(x));
  SHOW(F::celu(x, F::CELUFuncOptions().alpha(2)));
  SHOW(F::hardtanh(x, F::HardtanhFuncOptions().min_val(-2).max_val(0.5)));
  SHOW(F::relu6(x * 2));
  SHOW(F::softplus(x, F::SoftplusFuncOptions().beta(0.5).threshold(3)));
  SHOW(F::threshold(x, F::ThresholdFuncOptions(0.5, 9)));
  SHOW(F::softshrink(x, 0.25));
  SHOW(F::softshrink(x, F::SoftshrinkFuncOptions(1)));
  SHOW(F::hardshrink(x, F::HardshrinkFuncOptions().lambda(0.75)));
  SHOW(F::softsign(x));
  SHOW(F::tanhshrink(x));
  SHOW(F::glu(x.reshape({2, 4}), F::GLUFuncOptions(0)));
  SHOW(F::prelu(x, torch::full({1}, 0.1)));
  SHOW(F::logsigmoid(x));
  SHOW(F::rrelu(x, F::RReLUFuncOptions().lower(0.2).upper(0.4)));

  torch::Tensor y = x.clone();
  F::leaky_relu(y, F::LeakyReLUFuncOptions().inplace(true));
  SHOW(y);
  F::threshold(y, F::ThresholdFuncOptions(0, -1).inplace(true));
  SHOW(y);
  F::relu6(y, F::ReLU6FuncOptions(true));
  SHOW(y);
}

void modules() {
  torch::Tensor x = points();
  SHOW(nn::LeakyReLU()(x));
  SHOW(nn::ELU(nn::ELUOptions().alpha(0.5))(x));
  SHOW(nn::SELU()(x));
  SHOW(nn::CELU(nn::CELUOptions().alpha(2))(x));
  SHOW(nn::Hardtanh()(x));
  SHOW(nn::ReLU6()(x));
  SHOW(nn::Softplus()(x));
  SHOW(nn::Threshold(0.1, 20)(x));
  SHOW(nn::Softshrink()(x));
  SHOW(nn::Hardshrink(0.25)(x));
  SHOW(nn::Softsign()(x));
  SHOW(nn::Tanhshrink()(x));
  SHOW(nn::GLU()(x.reshape({2, 4})));
  SHOW(nn::Softmax2d()(torch::arange(8, torch::kFloat).reshape({1, 2, 2, 2})));
  SHOW_THROWS("Softmax2d requires a 3D or 4D tensor", nn::Softmax2d()(x));
  nn::RReLU rrelu(nn::RReLUOptions().lower(0.2).upper(0.4));
  rrelu->eval();  // draws only in training
  SHOW(rrelu(x));

  nn::PReLU prelu(nn::PReLUOptions().num_parameters(4).init(0.1));
  SHOW(prelu->weight);
  SHOW(prelu(x.reshape({2, 4})));
  SHOW(prelu->named_parameters().size());
  SHOW(std::dynamic_pointer_cast<nn::PReLUImpl>(prelu->clone())->weight);
  SHOW_THROWS("max_val must be greater than min_val",
              nn::Hardtanh(nn::HardtanhOptions().min_val(1).max_val(0)));

  torch::Tensor y = x.clone();
  nn::ELU(nn::ELUOptions().inplace(true))(y);
  SHOW(y);

  SHOW(printed(nn::LeakyReLU()));
  SHOW(printed(nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true))));
  SHOW(printed(nn::ELU()));
  SHOW(printed(nn::ELU(nn::ELUOptions().alpha(0.5).inplace(true))));
  SHOW(printed(nn::SELU()));
  SHOW(printed(nn::SELU(true)));
  SHOW(printed(nn::CELU(nn::CELUOptions().alpha(2))));
  SHOW(printed(nn::Hardtanh(nn::HardtanhOptions().min_val(-2).max_val(3).inplace(true))));
  SHOW(printed(nn::ReLU6()));
  SHOW(printed(nn::ReLU6(true)));
  SHOW(printed(nn::Softplus(nn::SoftplusOptions().beta(2).threshold(10))));
  SHOW(printed(nn::Threshold(0.1, 20)));
  SHOW(printed(nn::Threshold(nn::ThresholdOptions(0.1, 20).inplace(true))));
  SHOW(printed(nn::Softshrink()));
  SHOW(printed(nn::Hardshrink(0.25)));
  SHOW(printed(nn::Softsign()));
  SHOW(printed(nn::Tanhshrink()));
  SHOW(printed(nn::Softmax2d()));
  SHOW(printed(nn::GLU()));
  SHOW(printed(nn::GLU(1)));
  SHOW(printed(nn::PReLU()));
  SHOW(printed(nn::PReLU(nn::PReLUOptions().num_parameters(3))));
  SHOW(printed(nn::RReLU()));
  SHOW(printed(nn::RReLU(nn::RReLUOptions().lower(0.2).upper(0.4).inplace(true))));
}

// The node each out-of-place form records, and its gradient at the points.
void gradients() {
  auto node_and_grad = [](torch::Tensor (*f)(const torch::Tensor&)) {
    torch::Tensor x = points().to(torch::kDouble).requires_grad_();
    torch::Tensor y = f(x);
    y.sum().backward();
    return y.grad_fn()->name() + " " + torch_api::show(x.grad());
  };
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::leaky_relu(x, 0.2); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::elu(x, 0.5, 2, 1.5); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::selu(x); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::celu(x, 2); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::hardtanh(x, -0.5, 1); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::relu6(x * 4); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::softplus(x, 2, 1); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::threshold(x, 0.25, -7); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::softshrink(x, 0.5); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return torch::hardshrink(x, 0.5); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return F::softsign(x); }));
  SHOW(node_and_grad([](const torch::Tensor& x) { return F::tanhshrink(x); }));
}

}  // namespace

void nn_activations() {
  torch_api::section("nn activations: ATen functions");
  aten_functions();
  torch_api::section("nn activations: F:: forms");
  functional_forms();
  torch_api::section("nn activations: modules");
  modules();
  torch_api::section("nn activations: gradients");
  gradients();
}
