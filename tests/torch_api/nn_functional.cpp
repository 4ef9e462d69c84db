// Area 6 (issue 22): options builders and nn::functional as LibTorch's C++ frontend defines them:
// the enum tags (torch::kSum, kFanOut, kReLU), every layer's options and its F:: form with
// *FuncOptions, the losses' reductions, nn::init's deterministic initialisers, and nn::utils.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;

using torch_api::printed;

// 0.1, 0.2, ... in `sizes`: values that make each F:: call's arithmetic visible.
torch::Tensor ramp(std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return torch::arange(1, n + 1, torch::kFloat).mul(0.1).reshape(sizes);
}

void enums_and_losses() {
  SHOW(torch::enumtype::get_enum_name(torch::nn::MSELossOptions::reduction_t(torch::kSum)));
  SHOW(torch::enumtype::get_enum_name(torch::nn::init::FanModeType(torch::kFanOut)));
  torch::Tensor input = ramp({2, 3}), target = torch::ones({2, 3});
  SHOW(F::mse_loss(input, target));
  SHOW(F::mse_loss(input, target, torch::kSum));
  SHOW(F::mse_loss(input, target, F::MSELossFuncOptions().reduction(torch::kNone)));
  SHOW(torch::nn::MSELoss(torch::kSum)(input, target));
  SHOW(torch::nn::MSELoss(torch::nn::MSELossOptions(torch::kNone))(input, target));
  torch::Tensor classes = torch::tensor({2, 0}, torch::kLong);
  SHOW(F::cross_entropy(input, classes));
  SHOW(F::cross_entropy(input, classes, F::CrossEntropyFuncOptions().label_smoothing(0.1)));
  SHOW(F::cross_entropy(input, classes,
                        F::CrossEntropyFuncOptions()
                            .weight(torch::tensor({1.0f, 2.0f, 3.0f}))
                            .reduction(torch::kSum)));
  SHOW(F::cross_entropy(input, torch::tensor({2, -1}, torch::kLong),
                        F::CrossEntropyFuncOptions().ignore_index(-1)));
  SHOW(torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().reduction(torch::kNone))(
      input, classes));
  SHOW(F::nll_loss(input.log_softmax(1), classes, F::NLLLossFuncOptions().reduction(torch::kSum)));
  SHOW(torch::nn::NLLLoss()(input.log_softmax(1), classes));
  SHOW(F::binary_cross_entropy_with_logits(input, torch::full({2, 3}, 0.25)));
  SHOW(F::binary_cross_entropy_with_logits(
      input, torch::full({2, 3}, 0.25),
      F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(torch::full({3}, 2.0))));
  SHOW(torch::nn::BCEWithLogitsLoss(torch::nn::BCEWithLogitsLossOptions().reduction(torch::kSum))(
      input, torch::zeros({2, 3})));
}

void layer_functionals() {
  torch::Tensor x = ramp({1, 1, 4, 4});
  torch::Tensor w = torch::ones({2, 1, 3, 3});
  SHOW(F::conv2d(x, w));
  SHOW(F::conv2d(x, w, F::Conv2dFuncOptions().padding(1).stride(2).bias(torch::ones({2}))));
  SHOW(F::max_pool2d(x, F::MaxPool2dFuncOptions(2)));
  SHOW(F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(1).padding(1)));
  torch::Tensor features = ramp({3, 2});
  SHOW(F::batch_norm(features, torch::zeros({2}), torch::ones({2})));
  torch::Tensor mean = torch::zeros({2}), var = torch::ones({2});
  SHOW(F::batch_norm(
      features, mean, var,
      F::BatchNormFuncOptions().training(true).momentum(0.5).weight(torch::full({2}, 2.0))));
  SHOW(mean);
  SHOW(var);
  SHOW_THROWS(
      "Expected more than 1 value per channel when training",
      F::batch_norm(torch::ones({1, 2}), mean, var, F::BatchNormFuncOptions().training(true)));
  SHOW(F::layer_norm(features, F::LayerNormFuncOptions({2}).eps(1e-3)));
  SHOW(F::layer_norm(features, F::LayerNormFuncOptions({3, 2}).bias(torch::ones({3, 2}))));
  SHOW(F::normalize(torch::tensor({{3.0f, 4.0f}, {0.0f, 0.0f}})));
  SHOW(F::normalize(torch::tensor({{3.0f, 4.0f}, {1.0f, 1.0f}}),
                    F::NormalizeFuncOptions().p(1).dim(0)));
  torch::Tensor table = ramp({4, 2});
  SHOW(F::embedding(torch::tensor({3, 0, 3}, torch::kLong), table));
  SHOW(F::embedding(torch::tensor({1, 2}, torch::kLong), table,
                    F::EmbeddingFuncOptions().padding_idx(1)));
  SHOW(F::one_hot(torch::tensor({0, 2}, torch::kLong), 3));
  SHOW(F::dropout(x, F::DropoutFuncOptions().p(0.5).training(false)));
  SHOW(F::dropout(x, F::DropoutFuncOptions().p(1.0)));
  SHOW_THROWS("dropout probability has to be between 0 and 1",
              F::dropout(x, F::DropoutFuncOptions().p(1.5)));
  torch::Tensor y = torch::tensor({-1.0f, 0.5f, 2.0f});
  SHOW(F::relu(y));
  F::relu(y, F::ReLUFuncOptions().inplace(true));
  SHOW(y);
  SHOW(F::gelu(torch::tensor({-1.0f, 0.5f, 2.0f})));
  SHOW(F::gelu(torch::tensor({-1.0f, 0.5f, 2.0f}), F::GELUFuncOptions().approximate("tanh")));
  SHOW(F::softmax(features, F::SoftmaxFuncOptions(1)));
  SHOW(F::softmax(features, F::SoftmaxFuncOptions(0).dtype(torch::kDouble)));
  SHOW(F::log_softmax(features, F::LogSoftmaxFuncOptions(1)));
  SHOW(F::linear(features, torch::ones({1, 2}), torch::ones({1})));
}

void module_options() {
  SHOW(printed(torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true))));
  SHOW(printed(torch::nn::ReLU()));
  SHOW(printed(torch::nn::GELU(torch::nn::GELUOptions().approximate("tanh"))));
  SHOW(torch::nn::GELU(torch::nn::GELUOptions().approximate("tanh"))(torch::ones({1})));
  SHOW(printed(torch::nn::Flatten(torch::nn::FlattenOptions().start_dim(0).end_dim(1))));
  SHOW(torch::nn::Flatten(torch::nn::FlattenOptions().start_dim(0))(torch::ones({2, 3})).sizes());
  SHOW(printed(torch::nn::Dropout(torch::nn::DropoutOptions(0.25).inplace(true))));
  torch::nn::Embedding embedding(torch::nn::EmbeddingOptions(3, 2)._weight(ramp({3, 2})));
  SHOW(embedding->weight);
  SHOW(embedding(torch::tensor({2}, torch::kLong)));
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 2, {3, 2}).stride({2, 1}).bias(false));
  SHOW(printed(conv));
  SHOW(conv->options.kernel_size()->size());
  SHOW(printed(torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions({2, 3}).ceil_mode(true))));
  SHOW(printed(torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(4).eps(0.5).affine(false))));
  SHOW(printed(torch::nn::LayerNorm(torch::nn::LayerNormOptions({4}).elementwise_affine(false))));
  SHOW(printed(torch::nn::Linear(torch::nn::LinearOptions(3, 1).bias(false))));
}

void init_and_utils() {
  SHOW(torch::nn::init::calculate_gain(torch::kReLU));
  SHOW(torch::nn::init::calculate_gain(torch::kLeakyReLU, 0.2));
  SHOW(torch::nn::init::calculate_gain(torch::kTanh));
  SHOW(torch::nn::init::calculate_gain(torch::kConv2D));
  torch::Tensor w = torch::empty({4, 3, 2, 2});
  SHOW(std::get<0>(torch::nn::init::_calculate_fan_in_and_fan_out(w)));
  SHOW(std::get<1>(torch::nn::init::_calculate_fan_in_and_fan_out(w)));
  SHOW(torch::nn::init::eye_(torch::empty({2, 3})));
  SHOW(torch::nn::init::dirac_(torch::empty({2, 2, 3})));
  SHOW(torch::nn::init::constant_(torch::empty({2}), 0.5));
  SHOW(torch::nn::init::ones_(torch::empty({2})));
  SHOW(torch::nn::init::zeros_(torch::empty({2})));
  torch::Tensor q = torch::nn::init::orthogonal_(torch::empty({3, 5}), 2.0);
  SHOW(torch::allclose(q.matmul(q.t()), torch::eye(3) * 4, 1e-4, 1e-5));
  torch::Tensor tall = torch::nn::init::orthogonal_(torch::empty({5, 3}));
  SHOW(torch::allclose(tall.t().matmul(tall), torch::eye(3), 1e-4, 1e-5));
  torch::Tensor sparse = torch::nn::init::sparse_(torch::empty({4, 3}), 0.5);
  SHOW((sparse == 0).sum(0));
  torch::Tensor big = torch::empty({256, 512});
  torch::nn::init::kaiming_normal_(big, 0, torch::kFanOut, torch::kReLU);
  SHOW(std::abs(big.std().item<double>() / std::sqrt(2.0 / 256) - 1) < 0.05);
  torch::nn::init::kaiming_uniform_(big, std::sqrt(5.0));
  SHOW(big.abs().max().item<double>() <= 1 / std::sqrt(512.0));
  torch::nn::init::xavier_uniform_(big, 2.0);
  SHOW(big.abs().max().item<double>() <= 2 * std::sqrt(6.0 / 768));
  SHOW_THROWS("Fan in and fan out can not be computed",
              torch::nn::init::xavier_normal_(torch::empty({3})));

  torch::Tensor a = torch::ones({2, 2}, torch::requires_grad());
  torch::Tensor b = torch::ones({3}, torch::requires_grad());
  (a * 3).sum().backward();
  (b * 4).sum().backward();
  SHOW(torch::nn::utils::clip_grad_norm_({a, b}, 1.0));
  SHOW(a.grad());
  SHOW(torch::nn::utils::clip_grad_norm_(b, 100.0, std::numeric_limits<double>::infinity()));
  torch::nn::utils::clip_grad_value_({a, b}, 0.1);
  SHOW(b.grad());
  torch::Tensor flat = torch::nn::utils::parameters_to_vector({a, b});
  SHOW(flat);
  torch::nn::utils::vector_to_parameters(torch::arange(7, torch::kFloat), {a, b});
  SHOW(a);
  SHOW(b);
}

}  // namespace

void nn_functional() {
  torch_api::section("nn_functional: enums and losses");
  enums_and_losses();
  torch_api::section("nn_functional: layer functionals");
  layer_functionals();
  torch_api::section("nn_functional: module options");
  module_options();
  torch_api::section("nn_functional: init and utils");
  init_and_utils();
}
