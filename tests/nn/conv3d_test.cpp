// conv3d, F::conv3d and nn::Conv3d, and the "same" / "valid" paddings of conv1d/2d/3d, against
// PyTorch 1.13 (conv3d_reference.h, made by gen_conv3d_reference.py from the same cases): outputs
// and gradients in double, then gradchecks, the errors and the layer's printing.
#include <gtest/gtest.h>

#include <numeric>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/conv3d_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using Conv3dInputs = std::vector<Tensor>;

// A case of gen_conv3d_reference.py: every input requires grad.
void check_conv3d_case(const std::string& name, const std::vector<std::vector<int64_t>>& shapes,
                       const CaseOutputs& forward) {
  std::vector<size_t> grads(shapes.size());
  std::iota(grads.begin(), grads.end(), size_t{0});
  check_reference_case(conv3d_reference(), name, shapes, grads, forward);
}

std::string conv3d_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

TEST(Conv3d, MatchesPyTorch) {
  check_conv3d_case("conv3d_basic", {{2, 2, 4, 5, 4}, {3, 2, 2, 3, 2}, {3}},
                    [](const Conv3dInputs& v) { return Conv3dInputs{conv3d(v[0], v[1], v[2])}; });
  check_conv3d_case(
      "conv3d_stride_padding_dilation", {{1, 2, 5, 6, 5}, {4, 2, 2, 2, 3}, {4}},
      [](const Conv3dInputs& v) {
        return Conv3dInputs{F::conv3d(
            v[0], v[1],
            F::Conv3dFuncOptions().bias(v[2]).stride({2, 1, 2}).padding({1, 2, 0}).dilation(
                {2, 1, 1}))};
      });
  check_conv3d_case(
      "conv3d_groups_no_bias", {{2, 4, 4, 4, 3}, {6, 2, 2, 2, 2}},
      [](const Conv3dInputs& v) { return Conv3dInputs{conv3d(v[0], v[1], Tensor(), 1, 1, 1, 2)}; });
  check_conv3d_case("conv3d_unbatched", {{2, 3, 4, 4}, {2, 2, 3, 1, 2}, {2}},
                    [](const Conv3dInputs& v) {
                      return Conv3dInputs{conv3d(v[0], v[1], v[2], 1, {1, 0, 1}, {1, 2, 1})};
                    });
}

TEST(Conv3d, PaddingModesMatchPyTorch) {
  check_conv3d_case(
      "conv3d_reflect", {{2, 2, 3, 4, 4}, {3, 2, 3, 2, 2}, {3}}, [](const Conv3dInputs& v) {
        nn::Conv3d conv(
            nn::Conv3dOptions(2, 3, {3, 2, 2}).padding({1, 2, 1}).padding_mode(kReflect));
        conv->weight = v[1];
        conv->bias = v[2];
        return Conv3dInputs{conv(v[0])};
      });
  check_conv3d_case("conv3d_circular", {{1, 2, 4, 3, 5}, {2, 2, 2, 2, 3}, {2}},
                    [](const Conv3dInputs& v) {
                      nn::Conv3d conv(nn::Conv3dOptions(2, 2, {2, 2, 3})
                                          .stride(2)
                                          .padding({1, 1, 2})
                                          .padding_mode(kCircular));
                      conv->weight = v[1];
                      conv->bias = v[2];
                      return Conv3dInputs{conv(v[0])};
                    });
}

TEST(Conv3d, StringPaddingsMatchPyTorch) {
  check_conv3d_case("conv1d_same", {{2, 2, 7}, {3, 2, 4}, {3}}, [](const Conv3dInputs& v) {
    return Conv3dInputs{conv1d(v[0], v[1], v[2], 1, "same")};
  });
  check_conv3d_case("conv2d_same", {{1, 2, 5, 6}, {2, 2, 4, 3}, {2}}, [](const Conv3dInputs& v) {
    return Conv3dInputs{conv2d(v[0], v[1], v[2], 1, std::string("same"), {1, 2})};
  });
  check_conv3d_case("conv3d_same", {{1, 2, 4, 5, 7}, {2, 2, 2, 3, 2}, {2}},
                    [](const Conv3dInputs& v) {
                      return Conv3dInputs{conv3d(v[0], v[1], v[2], 1, "same", {1, 1, 3})};
                    });
  check_conv3d_case("conv3d_same_unbatched_groups", {{4, 3, 4, 5}, {2, 2, 3, 3, 3}},
                    [](const Conv3dInputs& v) {
                      return Conv3dInputs{conv3d(v[0], v[1], Tensor(), 1, "same", 1, 2)};
                    });
  check_conv3d_case("conv1d_valid", {{2, 2, 7}, {3, 2, 4}, {3}}, [](const Conv3dInputs& v) {
    return Conv3dInputs{conv1d(v[0], v[1], v[2], 2, "valid")};
  });
  check_conv3d_case("conv2d_valid", {{1, 2, 5, 6}, {2, 2, 4, 3}, {2}}, [](const Conv3dInputs& v) {
    return Conv3dInputs{conv2d(v[0], v[1], v[2], {1, 2}, "valid")};
  });
  check_conv3d_case("conv3d_valid", {{1, 2, 4, 5, 7}, {2, 2, 2, 3, 2}, {2}},
                    [](const Conv3dInputs& v) {
                      return Conv3dInputs{conv3d(v[0], v[1], v[2], {2, 1, 3}, "valid")};
                    });
}

// The options' padding variant: F::convNd with kSame / kValid, and the layers with padding kSame
// and a padding_mode (F::pad by dilation * (kernel - 1) per dim, the odd element on the right).
TEST(Conv3d, PaddingOptionsMatchPyTorch) {
  check_conv3d_case("conv1d_same", {{2, 2, 7}, {3, 2, 4}, {3}}, [](const Conv3dInputs& v) {
    return Conv3dInputs{F::conv1d(v[0], v[1], F::Conv1dFuncOptions().bias(v[2]).padding(kSame))};
  });
  check_conv3d_case("conv2d_same", {{1, 2, 5, 6}, {2, 2, 4, 3}, {2}}, [](const Conv3dInputs& v) {
    return Conv3dInputs{
        F::conv2d(v[0], v[1], F::Conv2dFuncOptions().bias(v[2]).padding(kSame).dilation({1, 2}))};
  });
  check_conv3d_case(
      "conv3d_valid", {{1, 2, 4, 5, 7}, {2, 2, 2, 3, 2}, {2}}, [](const Conv3dInputs& v) {
        return Conv3dInputs{F::conv3d(
            v[0], v[1], F::Conv3dFuncOptions().bias(v[2]).stride({2, 1, 3}).padding(kValid))};
      });
  check_conv3d_case(
      "conv3d_same", {{1, 2, 4, 5, 7}, {2, 2, 2, 3, 2}, {2}}, [](const Conv3dInputs& v) {
        nn::Conv3d conv(nn::Conv3dOptions(2, 2, {2, 3, 2}).padding(kSame).dilation({1, 1, 3}));
        conv->weight = v[1];
        conv->bias = v[2];
        return Conv3dInputs{conv(v[0])};
      });
  check_conv3d_case("conv2d_valid", {{1, 2, 5, 6}, {2, 2, 4, 3}, {2}}, [](const Conv3dInputs& v) {
    nn::Conv2d conv(nn::Conv2dOptions(2, 2, {4, 3}).stride({1, 2}).padding(kValid));
    conv->weight = v[1];
    conv->bias = v[2];
    return Conv3dInputs{conv(v[0])};
  });
  check_conv3d_case("conv1d_same_reflect", {{2, 2, 6}, {3, 2, 4}, {3}}, [](const Conv3dInputs& v) {
    nn::Conv1d conv(nn::Conv1dOptions(2, 3, 4).padding(kSame).padding_mode(kReflect));
    conv->weight = v[1];
    conv->bias = v[2];
    return Conv3dInputs{conv(v[0])};
  });
  check_conv3d_case("conv2d_same_circular", {{1, 2, 5, 6}, {2, 2, 4, 3}, {2}},
                    [](const Conv3dInputs& v) {
                      nn::Conv2d conv(nn::Conv2dOptions(2, 2, {4, 3})
                                          .padding(kSame)
                                          .dilation({1, 2})
                                          .padding_mode(kCircular));
                      conv->weight = v[1];
                      conv->bias = v[2];
                      return Conv3dInputs{conv(v[0])};
                    });
  check_conv3d_case(
      "conv3d_same_replicate", {{1, 2, 4, 5, 5}, {2, 2, 2, 3, 4}, {2}}, [](const Conv3dInputs& v) {
        nn::Conv3d conv(nn::Conv3dOptions(2, 2, {2, 3, 4}).padding(kSame).padding_mode(kReplicate));
        conv->weight = v[1];
        conv->bias = v[2];
        return Conv3dInputs{conv(v[0])};
      });
}

TEST(Conv3d, PaddingVariantPrintsAsLibTorch) {
  nn::Conv3d same(nn::Conv3dOptions(2, 2, 3).padding(kSame));
  EXPECT_EQ(conv3d_printed(*same),
            "torch::nn::Conv3d(2, 2, kernel_size=[3, 3, 3], stride=[1, 1, 1], padding='same')");
  EXPECT_EQ(same->extra_repr(), "2, 2, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=same");
  nn::Conv2d valid(nn::Conv2dOptions(2, 2, 3).padding(kValid).bias(false));
  EXPECT_EQ(conv3d_printed(*valid),
            "torch::nn::Conv2d(2, 2, kernel_size=[3, 3], stride=[1, 1], padding='valid', "
            "bias=false)");
  EXPECT_EQ(valid->extra_repr(),
            "2, 2, kernel_size=(3, 3), stride=(1, 1), padding=valid, bias=False");
  nn::Conv1d amounts(nn::Conv1dOptions(2, 2, 3).padding(2));
  EXPECT_EQ(conv3d_printed(*amounts),
            "torch::nn::Conv1d(2, 2, kernel_size=3, stride=1, padding=2)");
  EXPECT_EQ(amounts->extra_repr(), "2, 2, kernel_size=(3,), stride=(1,), padding=(2,)");
  // Amounts still read back as LibTorch's: std::get<ExpandingArray<D>>.
  EXPECT_EQ(
      (*std::get<ExpandingArray<3>>(nn::Conv3dOptions(1, 1, 1).padding({1, 2, 3}).padding()))[1],
      2);
  // kSame with a stride is refused when the layer is built, as LibTorch's reset().
  EXPECT_NE(error_of<ValueError>([] {
              nn::Conv2d(nn::Conv2dOptions(2, 2, 3).padding(kSame).stride({1, 2}));
            }).find("[Conv2d] padding='same' is not supported for strided convolutions"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              nn::Conv3d(nn::Conv3dOptions(2, 2, 3).padding(-1));
            }).find("[Conv3d] padding must be non-negative"),
            std::string::npos);
}

TEST(Conv3d, MatchesConv2dOnAUnitDepth) {
  manual_seed(3);
  const Tensor x = randn({2, 4, 1, 5, 6}), w = randn({6, 2, 1, 3, 2}), b = randn({6});
  const Tensor got = conv3d(x, w, b, {1, 2, 1}, {0, 1, 1}, 1, 2);
  const Tensor want = conv2d(x.squeeze(2), w.squeeze(2), b, {2, 1}, 1, 1, 2).unsqueeze(2);
  ASSERT_EQ(got.sizes(), want.sizes());
  EXPECT_TRUE(allclose(got, want, 1e-5, 1e-5));
  // A batch of none gives an empty result of the right shape.
  EXPECT_EQ(conv3d(zeros({0, 4, 3, 5, 6}), w, Tensor(), 1, 0, 1, 2).sizes(),
            IntArrayRef({0, 6, 3, 3, 5}));
}

TEST(Conv3d, Gradchecks) {
  manual_seed(7);
  using V = std::vector<Tensor>;
  gradcheck(
      "conv3d stride padding dilation groups",
      [](const V& v) {
        return conv3d(v[0], v[1], v[2], {2, 1, 1}, {1, 0, 1}, {1, 2, 1}, 2);
      },
      {randn({1, 4, 4, 4, 3}, kFloat64), randn({2, 2, 2, 2, 2}, kFloat64), randn({2}, kFloat64)});
  gradcheck("conv3d unbatched", [](const V& v) { return conv3d(v[0], v[1]); },
            {randn({2, 3, 3, 2}, kFloat64), randn({2, 2, 2, 2, 1}, kFloat64)});
  gradcheck("conv2d same (asymmetric)",
            [](const V& v) { return conv2d(v[0], v[1], v[2], 1, "same"); },
            {randn({1, 2, 3, 4}, kFloat64), randn({2, 2, 2, 3}, kFloat64), randn({2}, kFloat64)});
}

TEST(Conv3d, ErrorsSayWhatToChange) {
  const Tensor x = ones({1, 4, 3, 4, 4}), w = ones({2, 2, 2, 2, 2});
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(ones({4, 4, 4}), w);
            })
                .find("[conv3d] Expected 4D (unbatched [C, D, H, W]) or 5D (batched [N, C, D, H, "
                      "W]) input, but got input of size [4, 4, 4]"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, ones({2, 4, 2, 2}));
            }).find("[conv3d] expected a 5-D weight"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              conv3d(x, w.to(kFloat64), Tensor(), 1, 0, 1, 2);
            }).find("[conv3d] Input type (Float) and weight type (Double) should be the same"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              conv3d(x.to(kInt64), w.to(kInt64));
            }).find("[conv3d] expected a floating-point input"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] { conv3d(x, w); })
                .find("[conv3d] Given groups=1, weight of size [2, 2, 2, 2, 2], expected input[1, "
                      "4, 3, 4, 4] to have 2 channels, but got 4 channels instead"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, ones({3, 2, 2, 2, 2}), Tensor(), 1, 0, 1, 2);
            }).find("must be divisible by groups=2"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, w, Tensor(), 1, 0, 1, 0);
            }).find("[conv3d] non-positive groups is not supported, got 0"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, w, ones({3}), 1, 0, 1, 2);
            }).find("expected bias to be 1-D with 2 elements, but got bias of size [3]"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, w, Tensor(), {1, 1}, 0, 1, 2);
            }).find("[conv3d] stride must be one int or three (depth, height, width), got 2"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, w, Tensor(), 1, -1, 1, 2);
            }).find("[conv3d] padding must be non-negative"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, w, Tensor(), 1, 0, {1, 4, 1}, 2);
            })
                .find("[conv3d] Calculated padded input size per channel: (3 x 4 x 4). Kernel "
                      "size: (2 x 5 x 2). Kernel size can't be greater than actual input size"),
            std::string::npos);
  // The string paddings: PyTorch's messages.
  EXPECT_NE(error_of<ValueError>([&] {
              conv3d(x, w, Tensor(), 2, "same", 1, 2);
            }).find("[conv3d] padding='same' is not supported for strided convolutions"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv2d(ones({1, 2, 4, 4}), ones({1, 2, 2, 2}), {}, 1, "full");
            }).find("[conv2d] Invalid padding string: 'full'"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] {
              conv1d(ones({1, 2, 4}), ones({1, 2, 2, 2}), {}, 1, "same");
            }).find("[conv1d] expected a 3-D weight"),
            std::string::npos);
}

TEST(Conv3d, LayerBuildsAndPrintsAsLibTorch) {
  nn::Conv3d conv(nn::Conv3dOptions(4, 6, {3, 2, 1})
                      .stride({2, 1, 1})
                      .padding(1)
                      .dilation(2)
                      .groups(2)
                      .bias(false)
                      .padding_mode(kCircular));
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({6, 2, 3, 2, 1}));
  EXPECT_FALSE(conv->bias.defined());
  EXPECT_EQ(conv3d_printed(*conv),
            "torch::nn::Conv3d(4, 6, kernel_size=[3, 2, 1], stride=[2, 1, 1], padding=[1, 1, 1], "
            "dilation=[2, 2, 2], groups=2, bias=false, padding_mode=kCircular)");
  EXPECT_EQ(conv->extra_repr(),
            "4, 6, kernel_size=(3, 2, 1), stride=(2, 1, 1), padding=(1, 1, 1), dilation=(2, 2, "
            "2), groups=2, bias=False, padding_mode=circular");
  nn::Conv3d plain(nn::Conv3dOptions(2, 3, {1, 2, 3}));
  EXPECT_EQ(conv3d_printed(*plain),
            "torch::nn::Conv3d(2, 3, kernel_size=[1, 2, 3], stride=[1, 1, 1])");
  EXPECT_EQ(plain->extra_repr(), "2, 3, kernel_size=(1, 2, 3), stride=(1, 1, 1)");
  EXPECT_EQ(plain->weight.sizes(), IntArrayRef({3, 2, 1, 2, 3}));
  // kaiming_uniform(a = sqrt 5): |w| <= 1 / sqrt(fan_in), as the bias.
  const double bound = 1.0 / std::sqrt(2.0 * 6.0);
  EXPECT_LE(plain->weight.abs().max().item<float>(), bound + 1e-6);
  EXPECT_LE(plain->bias.abs().max().item<float>(), bound + 1e-6);
  EXPECT_EQ(plain(ones({2, 3, 4, 5})).sizes(), IntArrayRef({3, 3, 3, 3}));
  EXPECT_NE(error_of<ValueError>([] { nn::Conv3d(nn::Conv3dOptions(3, 4, 2).groups(2)); })
                .find("[Conv3d] in_channels (3) and out_channels (4) must both be divisible by "
                      "groups (2)"),
            std::string::npos);
}

}  // namespace
}  // namespace ember::test
