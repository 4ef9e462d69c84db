// Area 10 (issue 23): the rest of torch::nn's normalisation and shape layers as LibTorch's C++
// frontend has them: GroupNorm, InstanceNorm1d/2d/3d, LocalResponseNorm, BatchNorm3d, the
// channel and alpha dropouts, CosineSimilarity, PairwiseDistance, PixelShuffle/Unshuffle and
// Unflatten; their ATen functions, F:: forms with *FuncOptions, modules, printing and parameter
// names. Dropout draws differ between the libraries, so those print derived facts only.
#include <string>
#include <vector>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;
namespace nn = torch::nn;

using torch_api::printed;

// n values spread over [-1, 1) in double, shaped.
torch::Tensor wave(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return torch::arange(n, torch::kDouble).mul(0.37).sin().reshape(shape);
}

std::string names(const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& k : keys) out += (out.empty() ? "" : " ") + k;
  return out;
}

// The gradient of sum(f(x) * wave) with respect to x.
template <class Function>
torch::Tensor input_grad(torch::Tensor x, Function f) {
  x = x.detach().clone().requires_grad_();
  torch::Tensor y = f(x);
  (y * wave(y.sizes().vec())).sum().backward();
  return x.grad();
}

void normalization() {
  torch::Tensor x = wave({2, 4, 3});
  torch::Tensor w = torch::linspace(0.5, 2, 4, torch::kDouble),
                b = torch::arange(4, torch::kDouble);
  SHOW(torch::group_norm(x, 2));
  SHOW(torch::group_norm(x, 4, w, b, 1e-3));
  SHOW(F::group_norm(x, F::GroupNormFuncOptions(1).weight(w)));
  SHOW(input_grad(x, [&](const torch::Tensor& t) { return torch::group_norm(t, 2, w, b); }));
  SHOW_THROWS("Expected number of channels in input to be divisible by num_groups",
              torch::group_norm(x, 3));
  SHOW_THROWS("Expected weight to be a vector of size equal to the number of channels",
              torch::group_norm(x, 2, torch::ones({3})));

  SHOW(F::instance_norm(x));
  SHOW(F::instance_norm(x, F::InstanceNormFuncOptions().weight(w).bias(b).eps(1e-3)));
  torch::Tensor mean = torch::zeros({4}, torch::kDouble), var = torch::ones({4}, torch::kDouble);
  SHOW(torch::instance_norm(x, w, b, mean, var, true, 0.5, 1e-5, false));
  SHOW(mean);
  SHOW(var);
  SHOW(F::instance_norm(
      x, F::InstanceNormFuncOptions().running_mean(mean).running_var(var).use_input_stats(false)));
  SHOW(input_grad(x, [&](const torch::Tensor& t) { return F::instance_norm(t); }));

  torch::Tensor image = wave({2, 5, 2, 2});
  SHOW(F::local_response_norm(x, F::LocalResponseNormFuncOptions(3).alpha(0.5).k(2)));
  SHOW(F::local_response_norm(image, F::LocalResponseNormFuncOptions(2).beta(1)));
  SHOW(input_grad(x, [](const torch::Tensor& t) {
    return F::local_response_norm(t, F::LocalResponseNormFuncOptions(4).alpha(0.3));
  }));
  SHOW_THROWS("Expected 3D or higher dimensionality input",
              F::local_response_norm(torch::ones({2, 3}), 2));
}

void distances_and_shuffles() {
  torch::Tensor a = wave({3, 4}), b = wave({3, 4}).flip({1});
  SHOW(torch::cosine_similarity(a, b));
  SHOW(torch::cosine_similarity(a, b, 0, 1e-3));
  SHOW(F::cosine_similarity(wave({2, 1, 4}), a, F::CosineSimilarityFuncOptions().dim(-1)));
  SHOW(input_grad(a, [&](const torch::Tensor& t) { return torch::cosine_similarity(t, b); }));
  SHOW(torch::pairwise_distance(a, b));
  SHOW(torch::pairwise_distance(a, b, 1, 1e-6, true));
  SHOW(F::pairwise_distance(a, b[0], F::PairwiseDistanceFuncOptions().p(3).eps(0)));
  SHOW(torch::pairwise_distance(a[0], b[0]));
  SHOW(input_grad(a, [&](const torch::Tensor& t) { return torch::pairwise_distance(t, b); }));
  SHOW_THROWS("must match the size of tensor b", torch::pairwise_distance(a, torch::ones({2, 3})));

  torch::Tensor channels = torch::arange(2 * 8 * 1 * 2, torch::kFloat).reshape({2, 8, 1, 2});
  SHOW(torch::pixel_shuffle(channels, 2));
  SHOW(F::pixel_shuffle(channels, F::PixelShuffleFuncOptions(2)));
  SHOW(torch::pixel_unshuffle(torch::arange(16, torch::kFloat).reshape({1, 4, 4}), 2));
  SHOW(F::pixel_unshuffle(torch::pixel_shuffle(channels, 2), 2).equal(channels));
  SHOW_THROWS(
      "expects its input's 'channel' dimension to be divisible by the square of "
      "upscale_factor",
      torch::pixel_shuffle(torch::ones({1, 5, 2, 2}), 2));
  SHOW_THROWS("pixel_unshuffle expects height to be divisible by downscale_factor",
              torch::pixel_unshuffle(torch::ones({1, 1, 3, 4}), 2));
  SHOW_THROWS("pixel_shuffle expects input to have at least 3 dimensions",
              torch::pixel_shuffle(torch::ones({4}), 2));
}

// Whether every channel of [N, C, *] is all dropped (0) or all kept.
bool whole_channels(const torch::Tensor& out) {
  torch::Tensor zero = out.eq(0).flatten(2).to(torch::kDouble).mean(2);
  return (zero.eq(0) | zero.eq(1)).all().item<bool>();
}

void dropouts() {
  torch::Tensor x = torch::ones({4, 16, 3, 3});
  SHOW(whole_channels(F::dropout2d(x, F::Dropout2dFuncOptions().p(0.5))));
  SHOW(F::dropout2d(x, F::Dropout2dFuncOptions().p(0.5)).max());
  SHOW(whole_channels(F::dropout3d(x.unsqueeze(2), F::Dropout3dFuncOptions().p(0.25))));
  SHOW(F::dropout2d(x, F::Dropout2dFuncOptions().training(false)).equal(x));
  SHOW(F::dropout2d(x, F::Dropout2dFuncOptions().p(1)).abs().sum());
  SHOW(F::dropout2d(torch::ones({3}), F::Dropout2dFuncOptions().p(0)));

  // Alpha dropout of ones: kept values become a + alpha' a p, dropped ones -alpha' a + alpha' a p.
  torch::Tensor many = torch::ones({4000});
  torch::Tensor alpha = F::alpha_dropout(many, F::AlphaDropoutFuncOptions().p(0.5).training(true));
  SHOW(alpha.min());
  SHOW(alpha.max());
  SHOW(F::alpha_dropout(many).equal(many));
  SHOW(F::feature_alpha_dropout(wave({2, 3}),
                                F::FeatureAlphaDropoutFuncOptions().p(1).training(true)));
  SHOW_THROWS("Feature dropout requires at least 2 dimensions in the input",
              F::feature_alpha_dropout(torch::ones({3}),
                                       F::FeatureAlphaDropoutFuncOptions().training(true)));
  SHOW_THROWS("dropout probability has to be between 0 and 1, but got 1.5",
              F::alpha_dropout(many, F::AlphaDropoutFuncOptions().p(1.5)));

  torch::Tensor y = torch::ones({2, 8, 2});
  F::dropout2d(y, F::Dropout2dFuncOptions().p(0.5).inplace(true));
  SHOW(whole_channels(y));
}

void modules() {
  nn::GroupNorm group(2, 4);
  SHOW(printed(group));
  SHOW(printed(nn::GroupNorm(nn::GroupNormOptions(1, 3).eps(1e-3).affine(false))));
  SHOW(names(group->named_parameters().keys()));
  SHOW(group->weight);
  SHOW(group->bias);
  SHOW(group(wave({2, 4, 3}).to(torch::kFloat)));
  SHOW(nn::GroupNorm(nn::GroupNormOptions(2, 4).affine(false))->parameters().size());

  nn::InstanceNorm1d instance1d(4);
  SHOW(printed(instance1d));
  SHOW(instance1d->parameters().size() + instance1d->buffers().size());
  nn::InstanceNorm2d instance2d(
      nn::InstanceNormOptions(3).affine(true).track_running_stats(true).momentum(0.2));
  SHOW(printed(instance2d));
  SHOW(names(instance2d->named_parameters().keys()));
  SHOW(names(instance2d->named_buffers().keys()));
  torch::Tensor image = wave({2, 3, 2, 2}).to(torch::kFloat);
  SHOW(instance2d(image));
  SHOW(instance2d->running_mean);
  SHOW(instance2d->running_var);
  SHOW(instance2d->num_batches_tracked);
  instance2d->eval();
  SHOW(instance2d(image));
  SHOW(instance2d(image[0]));
  SHOW(printed(nn::InstanceNorm3d(2)));
  SHOW(nn::InstanceNorm3d(2)(wave({2, 2, 2, 1, 2}).to(torch::kFloat)));
  SHOW_THROWS("expected 2D or 3D input (got 4D input)", instance1d(image));
  SHOW_THROWS("expected 3D or 4D input (got 2D input)", nn::InstanceNorm2d(3)(torch::ones({2, 3})));

  nn::BatchNorm3d batch3d(3);
  SHOW(printed(batch3d));
  SHOW(names(batch3d->named_buffers().keys()));
  SHOW(batch3d(wave({2, 3, 1, 2, 2}).to(torch::kFloat)));
  SHOW_THROWS("expected 5D input (got 4D input)", batch3d(image));

  nn::LocalResponseNorm lrn(nn::LocalResponseNormOptions(2).alpha(0.5).beta(1).k(2));
  SHOW(printed(nn::LocalResponseNorm(3)));
  SHOW(printed(lrn));
  SHOW(lrn(image));

  SHOW(printed(nn::Dropout2d()));
  SHOW(printed(nn::Dropout3d(0.25)));
  SHOW(printed(nn::AlphaDropout(nn::AlphaDropoutOptions(0.2).inplace(true))));
  SHOW(printed(nn::FeatureAlphaDropout()));
  nn::Dropout2d dropout2d(0.5);
  SHOW(whole_channels(dropout2d(torch::ones({4, 16, 2, 2}))));
  dropout2d->eval();
  SHOW(dropout2d(image).equal(image));
  nn::AlphaDropout alpha(0.5);
  SHOW(alpha(torch::ones({1000})).max());
  SHOW_THROWS("dropout probability has to be between 0 and 1", nn::FeatureAlphaDropout(-0.5));

  torch::Tensor a = wave({3, 4}).to(torch::kFloat), b = a.flip({0});
  SHOW(printed(nn::CosineSimilarity()));
  SHOW(printed(nn::CosineSimilarity(nn::CosineSimilarityOptions().dim(0).eps(1e-3))));
  SHOW(nn::CosineSimilarity()(a, b));
  SHOW(printed(nn::PairwiseDistance()));
  SHOW(printed(nn::PairwiseDistance(nn::PairwiseDistanceOptions().p(1).keepdim(true))));
  SHOW(nn::PairwiseDistance(nn::PairwiseDistanceOptions().p(1).keepdim(true))(a, b));

  SHOW(printed(nn::PixelShuffle(2)));
  SHOW(printed(nn::PixelUnshuffle(3)));
  SHOW(nn::PixelShuffle(2)(torch::arange(8, torch::kFloat).reshape({1, 4, 1, 2})));
  SHOW(nn::PixelUnshuffle(2)(torch::arange(8, torch::kFloat).reshape({1, 2, 4})));

  nn::Unflatten unflatten(1, std::vector<int64_t>{2, -1});
  SHOW(printed(unflatten));
  SHOW(unflatten(torch::ones({2, 6, 5})).sizes());
  SHOW(nn::Unflatten(nn::UnflattenOptions(-1, {2, 2}))(torch::arange(8).reshape({2, 4})));
  SHOW_THROWS("don't multiply up to the size of dim 1 (6) in the input tensor",
              nn::Unflatten(1, std::vector<int64_t>{2, 4})(torch::ones({2, 6})));
}

}  // namespace

void nn_norms() {
  torch_api::section("nn norms: normalisation");
  normalization();
  torch_api::section("nn norms: distances and pixel shuffles");
  distances_and_shuffles();
  torch_api::section("nn norms: dropouts");
  dropouts();
  torch_api::section("nn norms: modules");
  modules();
}
