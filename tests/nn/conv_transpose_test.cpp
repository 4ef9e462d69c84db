// conv_transpose1d/2d/3d, F::conv_transpose* and the ConvTranspose1d/2d/3d layers against PyTorch
// 1.13 (conv_transpose_reference.h, made by gen_conv_transpose_reference.py from the same cases):
// outputs and input, weight and bias gradients in double, then gradchecks, the errors, the
// layers' output_size, initialisation and printing.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/conv_transpose_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using ConvtInputs = std::vector<Tensor>;
using ConvtFn = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                           IntArrayRef, int64_t, IntArrayRef);

struct ConvtArgs {
  std::vector<int64_t> stride{1}, padding{0}, output_padding{0};
  int64_t groups = 1;
  std::vector<int64_t> dilation{1};
};

// A case of gen_conv_transpose_reference.py: fn(x, w, b) with every input requiring grad; with
// bias, the third input is [w.size(1) * groups].
void check_convt_case(const std::string& name, ConvtFn fn, std::vector<int64_t> x,
                      std::vector<int64_t> w, bool with_bias, const ConvtArgs& a = {}) {
  std::vector<std::vector<int64_t>> shapes{x, w};
  if (with_bias) shapes.push_back({w[1] * a.groups});
  std::vector<size_t> grads(shapes.size());
  std::iota(grads.begin(), grads.end(), size_t{0});
  check_reference_case(conv_transpose_reference(), name, shapes, grads, [&](const ConvtInputs& v) {
    return ConvtInputs{fn(v[0], v[1], with_bias ? v[2] : Tensor(), a.stride, a.padding,
                          a.output_padding, a.groups, a.dilation)};
  });
}

TEST(ConvTranspose, OneDMatchesPyTorch) {
  check_convt_case("ct1d_plain", conv_transpose1d, {2, 3, 5}, {3, 2, 3}, true);
  check_convt_case("ct1d_stride_pad_outpad", conv_transpose1d, {2, 2, 4}, {2, 3, 3}, true,
                   {{3}, {1}, {2}, 1, {1}});
  check_convt_case("ct1d_groups_dilation", conv_transpose1d, {1, 4, 5}, {4, 3, 2}, false,
                   {{1}, {2}, {0}, 2, {3}});
  check_convt_case("ct1d_unbatched", conv_transpose1d, {3, 4}, {3, 2, 2}, true,
                   {{2}, {0}, {0}, 1, {1}});
}

TEST(ConvTranspose, TwoDMatchesPyTorch) {
  check_convt_case("ct2d_plain", conv_transpose2d, {2, 3, 3, 4}, {3, 2, 2, 3}, true);
  check_convt_case("ct2d_stride_pad_outpad", conv_transpose2d, {2, 2, 3, 4}, {2, 3, 3, 2}, true,
                   {{2, 3}, {1, 0}, {1, 2}, 1, {1}});
  check_convt_case("ct2d_groups_dilation", conv_transpose2d, {1, 6, 3, 3}, {6, 2, 2, 3}, true,
                   {{1}, {1, 1}, {0}, 3, {2, 1}});
  check_convt_case("ct2d_outpad_below_dilation", conv_transpose2d, {1, 2, 3, 3}, {2, 2, 3, 3},
                   false, {{1}, {2}, {2}, 1, {3}});
  check_convt_case("ct2d_outpad_beyond_padding", conv_transpose2d, {1, 1, 2, 3}, {1, 1, 1, 2},
                   false, {{3}, {2, 1}, {2, 1}, 1, {1}});
  check_convt_case("ct2d_unbatched", conv_transpose2d, {2, 3, 3}, {2, 4, 3, 3}, true,
                   {{2}, {1}, {1}, 1, {1}});
}

TEST(ConvTranspose, ThreeDMatchesPyTorch) {
  check_convt_case("ct3d_plain", conv_transpose3d, {1, 2, 2, 3, 2}, {2, 3, 2, 2, 2}, true);
  check_convt_case("ct3d_stride_pad_outpad", conv_transpose3d, {2, 2, 3, 2, 3}, {2, 2, 3, 2, 2},
                   true, {{2, 3, 1}, {1, 0, 1}, {1, 2, 0}, 1, {1}});
  check_convt_case("ct3d_groups_dilation", conv_transpose3d, {1, 4, 2, 3, 3}, {4, 1, 2, 2, 3}, true,
                   {{1, 2, 1}, {0, 1, 1}, {0}, 2, {2, 1, 2}});
  check_convt_case("ct3d_unbatched", conv_transpose3d, {2, 2, 2, 3}, {2, 2, 2, 3, 2}, false,
                   {{2}, {1}, {1}, 1, {1}});
}

// ConvTranspose2d's forward with an output_size: the case's weight and bias become the layer's.
void check_convt_layer_case(const std::string& name, std::vector<int64_t> x,
                            nn::ConvTranspose2dOptions options, std::vector<int64_t> output_size) {
  const int64_t in = options.in_channels(), out = options.out_channels();
  std::vector<int64_t> w{in, out / options.groups()};
  for (int64_t k : *options.kernel_size()) w.push_back(k);
  check_reference_case(conv_transpose_reference(), name, {x, w, {out}}, {0, 1, 2},
                       [&](const ConvtInputs& v) {
                         nn::ConvTranspose2d layer(options);
                         layer->weight = v[1];
                         layer->bias = v[2];
                         return ConvtInputs{layer(v[0], output_size)};
                       });
}

TEST(ConvTranspose, LayerOutputSizeMatchesPyTorch) {
  check_convt_layer_case("module_output_size", {1, 2, 4, 3},
                         nn::ConvTranspose2dOptions(2, 3, {3, 2}).stride({2, 3}).padding({1, 0}),
                         {8, 10});
  check_convt_layer_case("module_output_size_full", {2, 2, 3, 3},
                         nn::ConvTranspose2dOptions(2, 2, 2).stride(3).padding(1).dilation({2, 1}),
                         {2, 2, 7, 8});
  check_convt_layer_case("module_output_size_unbatched", {2, 3, 3},
                         nn::ConvTranspose2dOptions(2, 2, 2).stride(2), {2, 6, 7});
}

TEST(ConvTranspose, FunctionalOptionsAndLayersCallTheOps) {
  manual_seed(3);
  const Tensor x = randn({2, 4, 5}, kFloat64), w = randn({4, 3, 3}, kFloat64),
               b = randn({6}, kFloat64);
  expect_close(F::conv_transpose1d(
                   x, w, F::ConvTranspose1dFuncOptions().bias(b).stride(2).groups(2).padding(1)),
               {2, 6, 9}, conv_transpose1d(x, w, b, 2, 1, 0, 2).contiguous().to_vector<double>());
  const Tensor x3 = randn({1, 2, 2, 3, 2}, kFloat64), w3 = randn({2, 2, 2, 1, 2}, kFloat64);
  expect_close(F::conv_transpose3d(
                   x3, w3, F::ConvTranspose3dFuncOptions().output_padding({1, 0, 0}).stride(2)),
               {1, 2, 5, 5, 4},
               conv_transpose3d(x3, w3, {}, 2, 0, {1, 0, 0}).contiguous().to_vector<double>());
  // The layer is conv_transpose over its own weight and bias; options' output_padding applies
  // without an output_size.
  nn::ConvTranspose1d layer(
      nn::ConvTranspose1dOptions(4, 6, 3).stride(2).output_padding(1).groups(2));
  layer->to(kFloat64);
  expect_close(layer(x).detach().contiguous(), {2, 6, 12},
               conv_transpose1d(x, layer->weight, layer->bias, 2, 0, 1, 2)
                   .detach()
                   .contiguous()
                   .to_vector<double>());
  nn::ConvTranspose3d layer3(nn::ConvTranspose3dOptions(2, 4, {2, 1, 2}).bias(false));
  EXPECT_EQ(layer3(randn({2, 2, 3, 3})).sizes(), IntArrayRef({4, 3, 3, 4}));  // unbatched
  // A zero batch gives a zero batch.
  EXPECT_EQ(conv_transpose2d(zeros({0, 4, 3, 3}), ones({4, 3, 2, 2})).sizes(),
            IntArrayRef({0, 3, 4, 4}));
}

// The standard convolution's gradient in its input is the transposed convolution of the
// output's gradient with the same weight: a check of the weight's layout independent of PyTorch.
TEST(ConvTranspose, IsTheAdjointOfConv2d) {
  manual_seed(4);
  const Tensor x = randn({2, 4, 7, 6}, kFloat64).requires_grad_();
  const Tensor w = randn({6, 2, 3, 2}, kFloat64);
  const Tensor y = conv2d(x, w, {}, {2, 1}, {1, 0}, {1, 2}, 2);
  const Tensor g = randn(y.sizes(), kFloat64);
  (y * g).sum().backward();
  const Tensor back = conv_transpose2d(g, w, {}, {2, 1}, {1, 0}, {0, 0}, 2, {1, 2});
  expect_close(back, x.sizes(), x.grad().contiguous().to_vector<double>());
}

TEST(ConvTranspose, Gradchecks) {
  manual_seed(5);
  using V = std::vector<Tensor>;
  gradcheck("conv_transpose1d",
            [](const V& v) { return conv_transpose1d(v[0], v[1], v[2], 2, 1, 1, 2, 1); },
            {randn({2, 4, 3}, kFloat64), randn({4, 1, 3}, kFloat64), randn({2}, kFloat64)});
  gradcheck("conv_transpose2d",
            [](const V& v) {
              return conv_transpose2d(v[0], v[1], v[2], {2, 1}, {1, 0}, {1, 0}, 1, {1, 2});
            },
            {randn({1, 2, 3, 2}, kFloat64), randn({2, 2, 2, 2}, kFloat64), randn({2}, kFloat64)});
  gradcheck(
      "conv_transpose3d",
      [](const V& v) {
        return conv_transpose3d(v[0], v[1], v[2], {2, 1, 1}, 1, {1, 0, 0});
      },
      {randn({1, 2, 2, 2, 2}, kFloat64), randn({2, 1, 2, 2, 2}, kFloat64), randn({1}, kFloat64)});
}

TEST(ConvTranspose, ErrorsSayWhatToChange) {
  const Tensor x = ones({1, 4, 5, 5}), w = ones({4, 3, 3, 3});
  auto error = [&](auto&& fn) { return error_of<ValueError>(fn); };
  EXPECT_EQ(error([&] { conv_transpose2d(x, w, {}, 1, 0, 1); }),
            "[conv_transpose2d] output padding must be smaller than either stride or dilation, "
            "but got output_padding_height: 1 output_padding_width: 1 stride_height: 1 "
            "stride_width: 1 dilation_height: 1 dilation_width: 1; use a smaller output_padding");
  EXPECT_NE(error([&] {
              conv_transpose3d(ones({1, 4, 2, 2, 2}), ones({4, 1, 1, 1, 1}), {}, 1, 0, {0, 0, 1});
            })
                .find("output_padding_depth: 0 output_padding_height: 0 output_padding_width: 1 "
                      "stride_depth: 1"),
            std::string::npos);
  EXPECT_NE(error([&] {
              conv_transpose2d(ones({1, 3, 5, 5}), w);
            })
                .find("[conv_transpose2d] Given transposed=1, weight of size [4, 3, 3, 3], "
                      "expected input[1, 3, 5, 5] to have 4 channels, but got 3 channels instead"),
            std::string::npos);
  EXPECT_EQ(error([&] { conv_transpose2d(x, w, ones({4})); }),
            "[conv_transpose2d] Given transposed=1, weight of size [4, 3, 3, 3], expected bias "
            "to be 1-dimensional with 3 elements, but got bias of size [4] instead");
  EXPECT_NE(error([&] {
              conv_transpose2d(ones({4, 5}), w);
            })
                .find("[conv_transpose2d] Expected 3D (unbatched) or 4D (batched) input to "
                      "conv_transpose2d, but got input of size: [4, 5]"),
            std::string::npos);
  EXPECT_EQ(error([&] { conv_transpose2d(x, w, {}, 1, 0, 0, 3); }),
            "[conv_transpose2d] Given groups=3, expected weight to be divisible by 3 at "
            "dimension 0, but got weight of size [4, 3, 3, 3] instead");
  EXPECT_NE(error([&] { conv_transpose2d(x, w, {}, 1, 5); })
                .find("[conv_transpose2d] Given input size per channel: (5 x 5). Calculated "
                      "output size per channel: (-3 x -3). Output size is too small"),
            std::string::npos);
  EXPECT_NE(error([&] {
              conv_transpose2d(x, w, {}, {1, 2, 3});
            }).find("expected stride to be a single integer value or a list of 2 values"),
            std::string::npos);
  EXPECT_NE(error([&] {
              conv_transpose1d(ones({1, 4, 3}), ones({4, 1, 2}), {}, 0);
            }).find("[conv_transpose1d] non-positive stride is not supported"),
            std::string::npos);
  EXPECT_NE(error([&] { conv_transpose2d(x, w, {}, 1, -1); }).find("negative padding"),
            std::string::npos);
  EXPECT_NE(error([&] {
              conv_transpose2d(x, w, {}, 1, 0, 0, 1, 0);
            }).find("dilation should be greater than zero"),
            std::string::npos);
  EXPECT_NE(error([&] {
              conv_transpose2d(ones({1, 4, 0, 5}), w);
            }).find("Only zero batch or zero channel inputs are supported"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              conv_transpose2d(x.to(kFloat64), w);
            }).find("[conv_transpose2d] Input type (Double) and weight type (Float)"),
            std::string::npos);

  nn::ConvTranspose2d layer(nn::ConvTranspose2dOptions(4, 3, 3).stride(2));
  EXPECT_EQ(error([&] {
              layer(x, std::vector<int64_t>{20, 20});
            }),
            "[ConvTranspose2d] requested an output size of [20, 20], but valid sizes range from "
            "[11, 11] to [12, 12] (for an input of [5, 5])");
  EXPECT_EQ(error([&] {
              layer(x, std::vector<int64_t>{1, 2, 3});
            }),
            "[ConvTranspose2d] for 4D input, output_size must have 2 or 4 elements (got 3)");
  EXPECT_NE(error([&] {
              nn::ConvTranspose2d(nn::ConvTranspose2dOptions(4, 3, 3).padding_mode(kReflect));
            })
                .find("[ConvTranspose2d] Only `zeros` padding mode is supported for "
                      "ConvTranspose2d (got kReflect)"),
            std::string::npos);
  EXPECT_EQ(error([&] { nn::ConvTranspose1d(nn::ConvTranspose1dOptions(4, 3, 3).groups(3)); }),
            "[ConvTranspose1d] in_channels (4) and out_channels (3) must both be divisible by "
            "groups (3)");
}

std::string convt_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

TEST(ConvTranspose, LayersInitialiseAndPrintAsLibTorch) {
  manual_seed(6);
  nn::ConvTranspose2d layer(nn::ConvTranspose2dOptions(4, 6, {3, 2})
                                .stride(2)
                                .padding({1, 0})
                                .output_padding(1)
                                .groups(2)
                                .dilation({2, 1}));
  EXPECT_EQ(layer->weight.sizes(), IntArrayRef({4, 3, 3, 2}));
  EXPECT_EQ(layer->bias.sizes(), IntArrayRef({6}));
  // fan_in of the transposed weight [in, out / groups, k...] is out / groups * kH * kW = 18:
  // kaiming_uniform(a = sqrt 5) bounds the weight by 1 / sqrt(18), and the bias too.
  const double bound = 1.0 / std::sqrt(18.0);
  EXPECT_LE(layer->weight.abs().max().item<double>(), bound);
  EXPECT_GT(layer->weight.abs().max().item<double>(), 0.5 * bound);
  EXPECT_LE(layer->bias.abs().max().item<double>(), bound);
  EXPECT_EQ(layer->named_parameters().size(), 2U);
  EXPECT_EQ(convt_printed(*layer),
            "torch::nn::ConvTranspose2d(4, 6, kernel_size=[3, 2], stride=[2, 2], padding=[1, 0], "
            "dilation=[2, 1], output_padding=[1, 1], groups=2)");
  EXPECT_EQ(layer->extra_repr(),
            "4, 6, kernel_size=(3, 2), stride=(2, 2), padding=(1, 0), dilation=(2, 1), "
            "output_padding=(1, 1), groups=2");
  nn::ConvTranspose1d one(2, 3, 3);
  EXPECT_EQ(convt_printed(*one), "torch::nn::ConvTranspose1d(2, 3, kernel_size=3, stride=1)");
  EXPECT_EQ(one->extra_repr(), "2, 3, kernel_size=(3,), stride=(1,)");
  nn::ConvTranspose3d three(nn::ConvTranspose3dOptions(2, 2, 2).stride({1, 2, 1}).bias(false));
  EXPECT_FALSE(three->bias.defined());
  EXPECT_EQ(convt_printed(*three),
            "torch::nn::ConvTranspose3d(2, 2, kernel_size=[2, 2, 2], stride=[1, 2, 1], "
            "bias=false)");
  // A clone is a layer of its own with the same values; Sequential calls forward without an
  // output_size.
  auto copy = std::dynamic_pointer_cast<nn::ConvTranspose2dImpl>(layer->clone());
  ASSERT_TRUE(copy);
  EXPECT_TRUE(equal(copy->weight, layer->weight));
  nn::Sequential seq(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(1, 2, 2).stride(2)));
  EXPECT_EQ(seq->forward(ones({1, 1, 3, 3})).sizes(), IntArrayRef({1, 2, 6, 6}));
}

}  // namespace
}  // namespace ember::test
