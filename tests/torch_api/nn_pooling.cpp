// Area 11 (issue 23): the pools and Conv1d as LibTorch's C++ frontend has them: AvgPool,
// MaxPool, AdaptiveAvgPool, AdaptiveMaxPool and MaxUnpool in 1d/2d/3d, LPPool1d/2d and Conv1d;
// their ATen functions, F:: forms with *FuncOptions (ceil_mode, count_include_pad,
// divisor_override, indices, optional output sizes), modules, printing and gradients.
#include <string>
#include <tuple>
#include <vector>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;
namespace nn = torch::nn;

using torch_api::printed;

// 0, 1, 2, ... as float, shaped.
torch::Tensor counting(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return torch::arange(n, torch::kFloat).reshape(shape);
}

// n values spread over [-1, 1) in double, shaped (no two equal: the maxima are unique).
torch::Tensor swing(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return torch::arange(n, torch::kDouble).mul(0.37).sin().reshape(shape);
}

// The gradient of sum(f(x) * swing) with respect to x.
template <class Function>
torch::Tensor pooled_grad(torch::Tensor x, Function f) {
  x = x.detach().clone().requires_grad_();
  torch::Tensor y = f(x);
  (y * swing(y.sizes().vec())).sum().backward();
  return x.grad();
}

void average_and_max() {
  torch::Tensor x1 = counting({1, 2, 7}), x2 = counting({1, 1, 5, 5});
  torch::Tensor x3 = counting({1, 1, 3, 4, 4});
  SHOW(torch::avg_pool1d(x1, {3}, {2}, {1}, true, false));
  SHOW(torch::avg_pool2d(x2, {2, 2}, {2, 2}, {0, 0}, true));
  SHOW(torch::avg_pool2d(x2, {3, 3}, {2, 2}, {1, 1}, false, false));
  SHOW(torch::avg_pool2d(x2, {3, 3}, {2, 2}, {1, 1}, false, true, 4));
  SHOW(torch::avg_pool3d(x3, {2, 2, 2}, {1, 2, 2}, {1, 0, 1}, true, false));
  SHOW(F::avg_pool1d(x1, F::AvgPool1dFuncOptions(2).ceil_mode(true)));
  SHOW(F::avg_pool2d(x2, F::AvgPool2dFuncOptions(2).stride(1).divisor_override(2)));
  SHOW(F::avg_pool3d(x3, F::AvgPool3dFuncOptions({1, 2, 3}).padding({0, 1, 1})));

  SHOW(torch::max_pool1d(x1, {3}, {2}, {1}, {2}, true));
  SHOW(torch::max_pool1d_with_indices(x1, {2}));
  SHOW(torch::max_pool2d_with_indices(x2, {2, 2}, {2, 2}, {1, 1}, {1, 1}, true));
  SHOW(torch::max_pool3d(x3, {2, 2, 2}, {2, 2, 2}, {1, 0, 1}));
  SHOW(torch::max_pool3d_with_indices(x3, {2, 3, 2}, {1, 1, 2}, {0, 1, 1}, {1, 1, 1}, true));
  SHOW(F::max_pool1d(x1, F::MaxPool1dFuncOptions(3).stride(1).dilation(2)));
  SHOW(F::max_pool3d_with_indices(x3, F::MaxPool3dFuncOptions(2).ceil_mode(true)));

  torch::Tensor w = swing({2, 2, 5, 6});
  SHOW(pooled_grad(w, [](const torch::Tensor& t) {
    return F::avg_pool2d(t, F::AvgPool2dFuncOptions(3).stride(2).padding(1).ceil_mode(true));
  }));
  SHOW(pooled_grad(swing({1, 2, 4, 5, 3}), [](const torch::Tensor& t) {
    return torch::avg_pool3d(t, {2, 2, 2}, {2, 2, 2}, {1, 1, 1}, true, false);
  }));
  SHOW(pooled_grad(swing({1, 2, 4, 5, 3}), [](const torch::Tensor& t) {
    return torch::max_pool3d(t, {2, 2, 2}, {1, 2, 1}, {1, 0, 1});
  }));
}

void adaptive() {
  torch::Tensor x1 = counting({1, 2, 7}), x2 = counting({2, 5, 7}), x3 = counting({1, 3, 4, 5});
  SHOW(torch::adaptive_avg_pool1d(x1, {3}));
  SHOW(torch::adaptive_avg_pool2d(x2, {3, 4}));
  SHOW(torch::adaptive_avg_pool3d(x3, {2, 3, 4}));
  SHOW(torch::adaptive_max_pool1d(x1, {4}));
  SHOW(torch::adaptive_max_pool2d(x2, {2, 3}));
  SHOW(torch::adaptive_max_pool3d(x3, {2, 2, 2}));
  SHOW(F::adaptive_avg_pool2d(x2, F::AdaptiveAvgPool2dFuncOptions({2, c10::nullopt})));
  SHOW(F::adaptive_max_pool2d_with_indices(x2, F::AdaptiveMaxPool2dFuncOptions({c10::nullopt, 3})));
  SHOW(F::adaptive_avg_pool3d(x3, F::AdaptiveAvgPool3dFuncOptions(2)));
  SHOW(pooled_grad(swing({2, 5, 7}), [](const torch::Tensor& t) {
    return torch::adaptive_avg_pool2d(t, {3, 4});
  }));
  SHOW(pooled_grad(swing({2, 5, 7}), [](const torch::Tensor& t) {
    return std::get<0>(torch::adaptive_max_pool2d(t, {3, 2}));
  }));
}

void lp_unpool_conv1d() {
  torch::Tensor x1 = swing({1, 2, 8}), x2 = swing({1, 2, 4, 5});
  SHOW(F::lp_pool1d(x1, F::LPPool1dFuncOptions(2, 3).stride(2)));
  SHOW(F::lp_pool2d(x2, F::LPPool2dFuncOptions(4, 2).ceil_mode(true)));

  torch::Tensor values, indices;
  std::tie(values, indices) = torch::max_pool2d_with_indices(counting({1, 1, 4, 4}), {2, 2});
  SHOW(torch::max_unpool2d(values, indices, {4, 4}));
  SHOW(F::max_unpool2d(values, indices,
                       F::MaxUnpool2dFuncOptions(2).output_size(std::vector<int64_t>{1, 1, 5, 5})));
  std::tie(values, indices) = torch::max_pool1d_with_indices(counting({1, 2, 6}), {2});
  SHOW(F::max_unpool1d(values, indices, F::MaxUnpool1dFuncOptions(2)));
  std::tie(values, indices) = torch::max_pool3d_with_indices(counting({1, 1, 2, 4, 4}), {2, 2, 2});
  SHOW(F::max_unpool3d(values, indices, F::MaxUnpool3dFuncOptions(2)));

  torch::Tensor x = swing({2, 4, 9}), w = swing({6, 2, 3}), b = torch::arange(6, torch::kDouble);
  SHOW(torch::conv1d(x, w, b, {2}, {1}, {2}, 2));
  SHOW(F::conv1d(x, w, F::Conv1dFuncOptions().bias(b).stride(3).groups(2)));
  SHOW(pooled_grad(x, [&](const torch::Tensor& t) {
    return F::conv1d(t, w.narrow(1, 0, 1).repeat({1, 4, 1}));
  }));
}

void modules() {
  SHOW(printed(nn::AvgPool1d(3)));
  SHOW(printed(nn::AvgPool2d(nn::AvgPool2dOptions({2, 3}).stride(1).padding({1, 0}))));
  SHOW(printed(nn::AvgPool3d(2)));
  SHOW(printed(nn::MaxPool1d(nn::MaxPool1dOptions(2).dilation(2))));
  SHOW(printed(nn::MaxPool3d(nn::MaxPool3dOptions(3).ceil_mode(true))));
  SHOW(printed(nn::AdaptiveAvgPool1d(3)));
  SHOW(printed(nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({3, c10::nullopt}))));
  SHOW(printed(nn::AdaptiveMaxPool3d(2)));
  SHOW(printed(nn::MaxUnpool2d(nn::MaxUnpool2dOptions(2).stride(1))));
  SHOW(printed(nn::LPPool1d(2, 3)));
  SHOW(printed(nn::LPPool2d(nn::LPPool2dOptions(1.5, {2, 3}).ceil_mode(true))));
  SHOW(printed(nn::Conv1d(2, 4, 3)));
  SHOW(printed(nn::Conv1d(nn::Conv1dOptions(4, 6, 3).stride(2).padding(1).groups(2).bias(false))));

  torch::Tensor x1 = counting({1, 2, 7}), x2 = counting({1, 1, 5, 5});
  torch::Tensor x3 = counting({1, 1, 2, 4, 4});
  SHOW(nn::AvgPool1d(nn::AvgPool1dOptions(2).ceil_mode(true))(x1));
  SHOW(nn::AvgPool2d(nn::AvgPool2dOptions(2).count_include_pad(false).padding(1))(x2));
  SHOW(nn::AvgPool3d(nn::AvgPool3dOptions(2).divisor_override(3))(x3));
  SHOW(nn::MaxPool1d(2)(x1));
  SHOW(nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1))(x2));
  SHOW(nn::MaxPool3d(2)->forward_with_indices(x3));
  SHOW(nn::AdaptiveAvgPool1d(3)(x1));
  SHOW(nn::AdaptiveMaxPool2d(nn::AdaptiveMaxPool2dOptions({2, 3}))->forward_with_indices(x2));
  SHOW(nn::AdaptiveAvgPool3d(nn::AdaptiveAvgPool3dOptions({1, c10::nullopt, 2}))(x3));
  SHOW(nn::LPPool2d(2, 2)(x2));
  nn::MaxPool2d pool(nn::MaxPool2dOptions(2).stride(2));
  torch::Tensor values, indices;
  std::tie(values, indices) = pool->forward_with_indices(x2);
  SHOW(nn::MaxUnpool2d(2)(values, indices, std::vector<int64_t>{1, 1, 5, 5}));
  nn::Conv1d conv(nn::Conv1dOptions(2, 3, 2).bias(false));
  SHOW(conv->weight.sizes());
  SHOW(conv(x1).sizes());
}

}  // namespace

void nn_pooling() {
  torch_api::section("nn pooling: average and max");
  average_and_max();
  torch_api::section("nn pooling: adaptive");
  adaptive();
  torch_api::section("nn pooling: LP, unpooling, conv1d");
  lp_unpool_conv1d();
  torch_api::section("nn pooling: modules");
  modules();
}
