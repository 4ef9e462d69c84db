// The layers composed of other ops (conv3d, the transposed convolutions, interpolate,
// grid_sample, F::pad, fold/unfold, bilinear, embedding_bag, ctc_loss, rrelu) on every visible GPU
// against the CPU: the output and the gradient of every floating input, in float32 and float64.
// They have no kernels of their own, so this checks that every op they are made of takes its
// operands (and the index tensors they build) on the input's device. Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "ember/nn.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

namespace F = nn::functional;
using parity::expect_parity_each;
using parity::label;
using parity::leaf_on;

struct LayerCase {
  const char* name;
  std::vector<std::vector<int64_t>> shapes;  // the floating inputs, each a leaf
  std::function<Tensor(const std::vector<Tensor>&)> run;
};

// An int64 tensor of `values` on the device of `like`.
Tensor layer_indices(std::vector<int64_t> values, const Tensor& like) {
  return tensor(values, TensorOptions(kInt64).device(like.device()));
}

const std::vector<LayerCase> kLayerCases = {
    {"conv3d groups",
     {{2, 2, 3, 4, 4}, {4, 1, 2, 3, 2}, {4}},
     [](const std::vector<Tensor>& v) {
       return conv3d(v[0], v[1], v[2], {1, 2, 1}, {1, 0, 1}, 1, 2);
     }},
    {"conv3d same",
     {{1, 2, 3, 4, 3}, {2, 2, 2, 2, 3}},
     [](const std::vector<Tensor>& v) { return conv3d(v[0], v[1], {}, 1, "same"); }},
    {"conv_transpose2d",
     {{2, 2, 3, 4}, {2, 3, 3, 2}, {3}},
     [](const std::vector<Tensor>& v) {
       return conv_transpose2d(v[0], v[1], v[2], 2, 1, 1, 1, {1, 2});
     }},
    {"conv_transpose3d",
     {{1, 2, 2, 3, 2}, {2, 2, 2, 2, 3}},
     [](const std::vector<Tensor>& v) {
       return conv_transpose3d(v[0], v[1], {}, {2, 1, 1});
     }},
    {"interpolate bilinear",
     {{2, 2, 3, 4}},
     [](const std::vector<Tensor>& v) {
       return F::interpolate(v[0], F::InterpolateFuncOptions()
                                       .size(std::vector<int64_t>{5, 7})
                                       .mode(kBilinear)
                                       .align_corners(false));
     }},
    {"interpolate bicubic",
     {{1, 2, 4, 3}},
     [](const std::vector<Tensor>& v) {
       return F::interpolate(v[0], F::InterpolateFuncOptions()
                                       .size(std::vector<int64_t>{6, 5})
                                       .mode(kBicubic)
                                       .align_corners(true));
     }},
    {"interpolate trilinear",
     {{1, 1, 2, 3, 3}},
     [](const std::vector<Tensor>& v) {
       return F::interpolate(v[0], F::InterpolateFuncOptions()
                                       .scale_factor(std::vector<double>{2, 1.5, 2})
                                       .mode(kTrilinear)
                                       .align_corners(false));
     }},
    {"interpolate nearest and area",
     {{2, 3, 7}},
     [](const std::vector<Tensor>& v) {
       return F::interpolate(
                  v[0], F::InterpolateFuncOptions().size(std::vector<int64_t>{11}).mode(kNearest)) +
              F::interpolate(v[0],
                             F::InterpolateFuncOptions().size(std::vector<int64_t>{3}).mode(kArea))
                  .sum();
     }},
    {"grid_sample bilinear zeros",
     {{2, 2, 4, 5}, {2, 3, 3, 2}},
     [](const std::vector<Tensor>& v) {
       return F::grid_sample(v[0], v[1] * 0.6, F::GridSampleFuncOptions().align_corners(false));
     }},
    {"grid_sample nearest border",
     {{1, 2, 4, 5}, {1, 3, 2, 2}},
     [](const std::vector<Tensor>& v) {
       return F::grid_sample(
           v[0], v[1] * 0.6,
           F::GridSampleFuncOptions().mode(kNearest).padding_mode(kBorder).align_corners(true));
     }},
    {"grid_sample bilinear reflection 5-d",
     {{1, 2, 3, 4, 3}, {1, 2, 2, 2, 3}},
     [](const std::vector<Tensor>& v) {
       return F::grid_sample(
           v[0], v[1] * 0.6,
           F::GridSampleFuncOptions().padding_mode(kReflection).align_corners(false));
     }},
    {"affine_grid",
     {{2, 2, 3}},
     [](const std::vector<Tensor>& v) {
       return F::affine_grid(v[0], {2, 1, 3, 4}, false);
     }},
    {"pad reflect and circular",
     {{2, 3, 4, 5}},
     [](const std::vector<Tensor>& v) {
       return F::pad(v[0], F::PadFuncOptions({2, 1, 1, 2}).mode(kReflect)) +
              F::pad(v[0], F::PadFuncOptions({2, 1, 1, 2}).mode(kCircular));
     }},
    {"fold of unfold",
     {{2, 2, 5, 6}},
     [](const std::vector<Tensor>& v) {
       const Tensor blocks = F::unfold(v[0], F::UnfoldFuncOptions({2, 3}).padding(1).stride(2));
       return F::fold(blocks, F::FoldFuncOptions({5, 6}, {2, 3}).padding(1).stride(2));
     }},
    {"bilinear",
     {{3, 2}, {3, 4}, {5, 2, 4}, {5}},
     [](const std::vector<Tensor>& v) { return F::bilinear(v[0], v[1], v[2], v[3]); }},
    {"embedding_bag mean with per-sample weights",
     {{6, 3}, {8}},
     [](const std::vector<Tensor>& v) {
       const Tensor input = layer_indices({1, 2, 4, 5, 4, 3, 2, 0}, v[0]);
       return F::embedding_bag(input, v[0],
                               F::EmbeddingBagFuncOptions()
                                   .offsets(layer_indices({0, 3, 3, 6}, v[0]))
                                   .mode(kSum)
                                   .per_sample_weights(v[1])) +
              F::embedding_bag(input.view({2, 4}), v[0], F::EmbeddingBagFuncOptions().mode(kMax))
                  .sum();
     }},
    {"ctc_loss",
     {{6, 2, 4}},
     [](const std::vector<Tensor>& v) {
       const Tensor log_probs = log_softmax(v[0], 2);
       return F::ctc_loss(log_probs, layer_indices({1, 2, 2, 3, 1, 0}, v[0]).view({2, 3}),
                          layer_indices({6, 5}, v[0]), layer_indices({3, 2}, v[0]),
                          F::CTCLossFuncOptions().reduction(kSum));
     }},
    {"rrelu in training and outside it",
     {{3, 40}},
     [](const std::vector<Tensor>& v) {
       manual_seed(44);  // the same slopes on every device: its uniform draws are exact
       return F::rrelu(v[0], F::RReLUFuncOptions().lower(0.1).upper(0.3).training(true)) +
              F::rrelu(v[0], F::RReLUFuncOptions().lower(0.2).upper(0.4));
     }},
};

TEST(LayerParity, ComposedLayersForwardAndBackward) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus())
    for (ScalarType t : {kFloat32, kFloat64})
      for (const LayerCase& c : kLayerCases) {
        manual_seed(43);
        std::vector<Tensor> values;
        for (const std::vector<int64_t>& shape : c.shapes) values.push_back(randn(shape).to(t));
        expect_parity_each(
            label(c.name, t, device), device,
            [&](Device d) {
              std::vector<Tensor> leaves;
              for (const Tensor& v : values) leaves.push_back(leaf_on(v, d));
              const Tensor out = c.run(leaves);
              // The weights make every output element's gradient differ.
              const Tensor weights =
                  cos(arange(out.numel(), TensorOptions(t).device(d)) * 0.7).view(out.sizes());
              (out * weights).sum().backward();
              std::vector<Tensor> results = {out.detach()};
              for (const Tensor& leaf : leaves) results.push_back(leaf.grad());
              return results;
            },
            [](ScalarType s) { return s == kFloat32 ? 1e-4 : 1e-10; });
      }
}

}  // namespace
}  // namespace ember
