// Area 12 (issue 23): the layers that followed the pools, as LibTorch's C++ frontend has them:
// F::pad in its four modes and the padding modules, Fold/Unfold, Bilinear, the transposed
// convolutions, Conv3d and the "same"/"valid" paddings, Upsample and F::interpolate, F::affine_grid
// and F::grid_sample, EmbeddingBag, Embedding's max_norm and CTCLoss; their F:: forms with
// *FuncOptions, modules, printing and gradients. Parameters are set by hand: the two libraries draw
// different random numbers.
#include <string>
#include <vector>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;
namespace nn = torch::nn;

using torch_api::printed;

// n values spread over [-1, 1] in double, shaped (no two equal).
torch::Tensor layers_wave(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return torch::arange(n, torch::kDouble).mul(0.61).cos().reshape(shape);
}

// The gradient of sum(f(x) * wave) with respect to x.
template <class Function>
torch::Tensor layers_grad(torch::Tensor x, Function f) {
  x = x.detach().clone().requires_grad_();
  torch::Tensor y = f(x);
  (y * layers_wave(y.sizes().vec())).sum().backward();
  return x.grad();
}

// Overwrites a parameter with `values`, outside autograd.
void layers_set(torch::Tensor& parameter, const torch::Tensor& values) {
  torch::NoGradGuard no_grad;
  parameter.copy_(values.reshape(parameter.sizes()));
}

void padding() {
  torch::Tensor x = layers_wave({1, 2, 3, 4});
  SHOW(F::pad(x, F::PadFuncOptions({1, 2})));
  SHOW(F::pad(x, F::PadFuncOptions({1, -1, 0, 2}).value(0.5)));
  SHOW(F::pad(x, F::PadFuncOptions({2, 1, 1, 2}).mode(torch::kReflect)));
  SHOW(F::pad(x, F::PadFuncOptions({3, 0, 0, 1}).mode(torch::kReplicate)));
  SHOW(F::pad(x, F::PadFuncOptions({1, 2, 2, 1}).mode(torch::kCircular)));
  SHOW(F::pad(layers_wave({1, 1, 2, 2, 3}),
              F::PadFuncOptions({1, 1, 1, 0, 0, 1}).mode(torch::kReplicate)));
  SHOW(layers_grad(x, [](const torch::Tensor& t) {
    return F::pad(t, F::PadFuncOptions({2, 2, 1, 1}).mode(torch::kReflect));
  }));
  SHOW(layers_grad(x, [](const torch::Tensor& t) {
    return F::pad(t, F::PadFuncOptions({1, 3, 2, 0}).mode(torch::kCircular));
  }));
  SHOW(printed(nn::ReflectionPad2d(nn::ReflectionPad2dOptions({1, 1, 2, 0}))));
  SHOW(printed(nn::ReplicationPad1d(2)));
  SHOW(printed(nn::ConstantPad3d(nn::ConstantPad3dOptions(1, 3.5))));
  SHOW(printed(nn::ZeroPad2d(nn::ZeroPad2dOptions({1, 2, 3, 4}))));
  SHOW(nn::ReplicationPad2d(1)(x));
  SHOW(printed(nn::Conv2d(nn::Conv2dOptions(2, 4, 3).padding(1).padding_mode(torch::kReflect))));
}

void fold_bilinear() {
  torch::Tensor x = layers_wave({1, 2, 4, 5});
  torch::Tensor blocks = F::unfold(x, F::UnfoldFuncOptions({2, 3}).padding(1).stride({1, 2}));
  SHOW(blocks);
  SHOW(F::fold(blocks, F::FoldFuncOptions({4, 5}, {2, 3}).padding(1).stride({1, 2})));
  SHOW(F::unfold(x, F::UnfoldFuncOptions(2).dilation(2)));
  SHOW(layers_grad(x, [](const torch::Tensor& t) {
    return F::unfold(t, F::UnfoldFuncOptions({3, 2}).stride(2).padding({1, 0}));
  }));
  SHOW(printed(nn::Fold(nn::FoldOptions({4, 5}, {2, 2}).stride(2))));
  SHOW(printed(nn::Unfold(nn::UnfoldOptions({2, 3}).dilation(2))));

  torch::Tensor a = layers_wave({3, 2}), b = layers_wave({3, 4}).flip(0);
  torch::Tensor w = layers_wave({5, 2, 4}), bias = torch::arange(5, torch::kDouble);
  SHOW(F::bilinear(a, b, w, bias));
  SHOW(torch::bilinear(a, b, w));
  SHOW(layers_grad(a, [&](const torch::Tensor& t) { return F::bilinear(t, b, w); }));
  nn::Bilinear layer(nn::BilinearOptions(2, 4, 5));
  layer->to(torch::kDouble);
  layers_set(layer->weight, w);
  layers_set(layer->bias, bias);
  SHOW(layer(a, b));
  SHOW(printed(layer));
  SHOW(printed(nn::Bilinear(nn::BilinearOptions(3, 2, 1).bias(false))));
}

void transposed_convolutions() {
  torch::Tensor x2 = layers_wave({1, 2, 3, 4}), w2 = layers_wave({2, 3, 3, 2});
  torch::Tensor b = torch::arange(3, torch::kDouble);
  SHOW(torch::conv_transpose2d(x2, w2, b, {2, 1}, {1, 0}, {1, 0}, 1, {1, 2}));
  SHOW(F::conv_transpose2d(x2, w2, F::ConvTranspose2dFuncOptions().stride(2).output_padding(1)));
  SHOW(F::conv_transpose2d(x2, layers_wave({2, 1, 2, 2}),
                           F::ConvTranspose2dFuncOptions().groups(2).padding(1)));
  torch::Tensor x1 = layers_wave({2, 2, 5}), w1 = layers_wave({2, 3, 3});
  SHOW(torch::conv_transpose1d(x1, w1, b, 2, 1, 1));
  SHOW(F::conv_transpose1d(x1, w1, F::ConvTranspose1dFuncOptions().dilation(2)));
  torch::Tensor x3 = layers_wave({1, 2, 2, 3, 2}), w3 = layers_wave({2, 2, 2, 2, 3});
  SHOW(torch::conv_transpose3d(x3, w3, {}, {2, 1, 1}, {0, 1, 1}));
  SHOW(layers_grad(
      x2, [&](const torch::Tensor& t) { return torch::conv_transpose2d(t, w2, b, 2, 1); }));
  SHOW(layers_grad(w2, [&](const torch::Tensor& t) {
    return F::conv_transpose2d(x2, t, F::ConvTranspose2dFuncOptions().stride({1, 2}));
  }));

  nn::ConvTranspose2d layer(nn::ConvTranspose2dOptions(2, 3, {3, 2}).stride(2).padding(1));
  layer->to(torch::kDouble);
  layers_set(layer->weight, w2);
  layers_set(layer->bias, b);
  SHOW(layer(x2));
  SHOW(layer->forward(x2, std::vector<int64_t>{6, 7}).sizes());
  SHOW(printed(layer));
  SHOW(printed(nn::ConvTranspose1d(nn::ConvTranspose1dOptions(4, 2, 3).groups(2).bias(false))));
  SHOW(printed(
      nn::ConvTranspose3d(nn::ConvTranspose3dOptions(1, 2, 2).output_padding(1).stride(2))));
}

void conv3d_and_string_padding() {
  torch::Tensor x = layers_wave({1, 2, 3, 4, 4}), w = layers_wave({4, 1, 2, 3, 2});
  torch::Tensor b = torch::arange(4, torch::kDouble);
  SHOW(torch::conv3d(x, w, b, {1, 2, 1}, {1, 0, 1}, 1, 2));
  SHOW(F::conv3d(x, layers_wave({2, 2, 1, 2, 2}),
                 F::Conv3dFuncOptions().stride(2).dilation({1, 2, 1})));
  SHOW(torch::conv3d(x, w, b, 1, "same", {1, 2, 1}, 2));
  SHOW(torch::conv1d(layers_wave({1, 2, 6}), layers_wave({3, 2, 4}), {}, 1, "same"));
  SHOW(torch::conv2d(layers_wave({1, 1, 4, 5}), layers_wave({2, 1, 2, 3}), {}, 1, "valid"));
  SHOW(F::conv2d(layers_wave({1, 1, 4, 5}), layers_wave({2, 1, 3, 2}),
                 F::Conv2dFuncOptions().padding(torch::kSame)));
  SHOW(layers_grad(x, [&](const torch::Tensor& t) {
    return torch::conv3d(t, w, b, {2, 1, 1}, {0, 1, 1}, 1, 2);
  }));
  nn::Conv3d layer(nn::Conv3dOptions(2, 4, {2, 3, 2}).groups(2).padding({1, 0, 1}));
  layer->to(torch::kDouble);
  layers_set(layer->weight, w);
  layers_set(layer->bias, b);
  SHOW(layer(x));
  SHOW(printed(layer));
  SHOW(printed(
      nn::Conv3d(nn::Conv3dOptions(1, 2, 3).padding(torch::kSame).padding_mode(torch::kCircular))));
  SHOW(printed(nn::Conv1d(nn::Conv1dOptions(2, 2, 3).padding(torch::kValid))));
}

void resampling() {
  torch::Tensor x1 = layers_wave({1, 2, 4}), x2 = layers_wave({1, 1, 3, 4});
  SHOW(F::interpolate(x1, F::InterpolateFuncOptions().size(std::vector<int64_t>{7})));
  SHOW(F::interpolate(x1, F::InterpolateFuncOptions()
                              .size(std::vector<int64_t>{6})
                              .mode(torch::kLinear)
                              .align_corners(true)));
  SHOW(F::interpolate(x2, F::InterpolateFuncOptions()
                              .scale_factor(std::vector<double>{1.5, 2})
                              .mode(torch::kBilinear)
                              .align_corners(false)));
  SHOW(F::interpolate(x2, F::InterpolateFuncOptions()
                              .size(std::vector<int64_t>{5, 5})
                              .mode(torch::kBicubic)
                              .align_corners(false)));
  SHOW(F::interpolate(
      x2, F::InterpolateFuncOptions().size(std::vector<int64_t>{2, 3}).mode(torch::kArea)));
  SHOW(
      F::interpolate(layers_wave({1, 1, 2, 2, 3}), F::InterpolateFuncOptions()
                                                       .scale_factor(std::vector<double>{2, 1.5, 2})
                                                       .mode(torch::kTrilinear)
                                                       .align_corners(true)));
  SHOW(layers_grad(x2, [](const torch::Tensor& t) {
    return F::interpolate(t, F::InterpolateFuncOptions()
                                 .size(std::vector<int64_t>{4, 7})
                                 .mode(torch::kBilinear)
                                 .align_corners(false));
  }));
  nn::Upsample up(nn::UpsampleOptions().scale_factor(std::vector<double>{2}).mode(torch::kNearest));
  SHOW(up(x1));
  SHOW(printed(up));
  SHOW(printed(nn::Upsample(nn::UpsampleOptions()
                                .size(std::vector<int64_t>{4, 6})
                                .mode(torch::kBilinear)
                                .align_corners(true))));

  torch::Tensor theta =
      torch::tensor({0.8, -0.3, 0.1, 0.2, 1.1, -0.2}, torch::kDouble).view({1, 2, 3});
  torch::Tensor grid = F::affine_grid(theta, {1, 1, 3, 4}, false);
  SHOW(grid);
  SHOW(F::affine_grid(theta, {1, 1, 2, 3}, true));
  SHOW(F::grid_sample(x2, grid, F::GridSampleFuncOptions().align_corners(false)));
  SHOW(F::grid_sample(x2, grid * 1.5,
                      F::GridSampleFuncOptions()
                          .mode(torch::kNearest)
                          .padding_mode(torch::kBorder)
                          .align_corners(true)));
  SHOW(F::grid_sample(
      x2, grid * 1.5,
      F::GridSampleFuncOptions().padding_mode(torch::kReflection).align_corners(false)));
  SHOW(layers_grad(grid, [&](const torch::Tensor& g) {
    return F::grid_sample(x2, g, F::GridSampleFuncOptions().align_corners(true));
  }));
}

void embeddings_and_ctc() {
  torch::Tensor weight = layers_wave({6, 3});
  torch::Tensor input = torch::tensor({1, 2, 4, 5, 4, 3, 2, 0}, torch::kLong);
  torch::Tensor offsets = torch::tensor({0, 3, 3, 6}, torch::kLong);
  SHOW(F::embedding_bag(input, weight, F::EmbeddingBagFuncOptions().offsets(offsets)));
  SHOW(F::embedding_bag(input, weight,
                        F::EmbeddingBagFuncOptions().offsets(offsets).mode(torch::kSum)));
  SHOW(
      F::embedding_bag(input.view({2, 4}), weight, F::EmbeddingBagFuncOptions().mode(torch::kMax)));
  SHOW(F::embedding_bag(input, weight,
                        F::EmbeddingBagFuncOptions()
                            .offsets(torch::tensor({0, 2, 8}, torch::kLong))
                            .mode(torch::kSum)
                            .include_last_offset(true)
                            .per_sample_weights(torch::linspace(0.5, 2, 8, torch::kDouble))));
  SHOW(layers_grad(weight, [&](const torch::Tensor& w) {
    return F::embedding_bag(input, w, F::EmbeddingBagFuncOptions().offsets(offsets).padding_idx(4));
  }));
  nn::EmbeddingBag bag(nn::EmbeddingBagOptions(6, 3).mode(torch::kSum));
  layers_set(bag->weight, weight);
  SHOW(bag(input, offsets));
  SHOW(printed(bag));
  SHOW(printed(nn::EmbeddingBag(nn::EmbeddingBagOptions(4, 2).max_norm(1.5).mode(torch::kMax))));
  SHOW(nn::EmbeddingBag::from_pretrained(weight)(input.view({4, 2})));

  torch::Tensor big = layers_wave({5, 3}) * 3;
  SHOW(F::embedding(torch::tensor({0, 2, 2}, torch::kLong), big,
                    F::EmbeddingFuncOptions().max_norm(1.0)));
  SHOW(big);  // rows 0 and 2 renormalised in place
  SHOW(printed(nn::Embedding(nn::EmbeddingOptions(4, 2).max_norm(2.0).norm_type(1.0))));

  // log_probs [T = 5, N = 2, C = 4]; targets padded to 3 labels.
  torch::Tensor log_probs = torch::log_softmax(layers_wave({5, 2, 4}), 2);
  torch::Tensor targets = torch::tensor({1, 2, 2, 3, 1, 0}, torch::kLong).view({2, 3});
  torch::Tensor input_lengths = torch::tensor({5, 4}, torch::kLong);
  torch::Tensor target_lengths = torch::tensor({3, 2}, torch::kLong);
  SHOW(F::ctc_loss(log_probs, targets, input_lengths, target_lengths));
  SHOW(F::ctc_loss(log_probs, targets, input_lengths, target_lengths,
                   F::CTCLossFuncOptions().reduction(torch::kNone)));
  SHOW(torch::ctc_loss(log_probs, targets, {5, 4}, {3, 2}, 0, at::Reduction::Sum));
  SHOW(layers_grad(log_probs, [&](const torch::Tensor& lp) {
    return F::ctc_loss(lp, targets, input_lengths, target_lengths,
                       F::CTCLossFuncOptions().reduction(torch::kSum));
  }));
  nn::CTCLoss ctc(nn::CTCLossOptions().blank(3).zero_infinity(true));
  SHOW(ctc(log_probs, torch::tensor({1, 2, 0, 0, 1, 2}, torch::kLong).view({2, 3}), input_lengths,
           target_lengths));
  SHOW(printed(ctc));
}

}  // namespace

void nn_layers() {
  torch_api::section("nn layers: padding");
  padding();
  torch_api::section("nn layers: fold, unfold, bilinear");
  fold_bilinear();
  torch_api::section("nn layers: transposed convolutions");
  transposed_convolutions();
  torch_api::section("nn layers: conv3d, same and valid padding");
  conv3d_and_string_padding();
  torch_api::section("nn layers: interpolate, affine_grid, grid_sample");
  resampling();
  torch_api::section("nn layers: embedding bags, max_norm, CTC");
  embeddings_and_ctc();
}
