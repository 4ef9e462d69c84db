// F::interpolate in every mode and the Upsample layer against PyTorch 1.13
// (upsampling_reference.h, made by gen_upsampling_reference.py from the same cases): outputs and
// input gradients in double, then gradchecks, the warnings, the errors and the layer's printing.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "ember/warning.h"
#include "nn/reference_case.h"
#include "nn/upsampling_reference.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using UpsampleInputs = std::vector<Tensor>;
using UpsamplingSizes = std::vector<int64_t>;
using UpsamplingScales = std::vector<double>;

// Silences (and counts) the warnings raised in its scope.
struct UpsamplingWarnings : WarningHandler {
  std::vector<std::string> messages;
  void process(const Warning& warning) override { messages.push_back(warning.msg()); }
};

// One golden case: F::interpolate of the case's one input with `options`.
void check_upsampling_case(const std::string& name, UpsamplingSizes shape,
                           const F::InterpolateFuncOptions& options) {
  UpsamplingWarnings quiet;
  WarningUtils::WarningHandlerGuard guard(&quiet);
  check_reference_case(
      upsampling_reference(), name, {std::move(shape)}, {0},
      [&](const UpsampleInputs& v) { return UpsampleInputs{F::interpolate(v[0], options)}; });
}

F::InterpolateFuncOptions upsampling_sized(UpsamplingSizes size,
                                           F::InterpolateFuncOptions::mode_t mode) {
  return F::InterpolateFuncOptions().size(std::move(size)).mode(mode);
}
F::InterpolateFuncOptions upsampling_scaled(UpsamplingScales scale,
                                            F::InterpolateFuncOptions::mode_t mode) {
  return F::InterpolateFuncOptions().scale_factor(std::move(scale)).mode(mode);
}

TEST(Upsampling, NearestMatchesPyTorch) {
  check_upsampling_case("nearest_1d_size", {2, 3, 5}, upsampling_sized({8}, kNearest));
  check_upsampling_case("nearest_1d_down", {1, 2, 7}, upsampling_sized({3}, kNearest));
  check_upsampling_case("nearest_1d_recompute", {1, 1, 5},
                        upsampling_scaled({2.5}, kNearest).recompute_scale_factor(true));
  check_upsampling_case("nearest_2d_scale", {1, 2, 3, 4}, upsampling_scaled({2.0, 1.5}, kNearest));
  check_upsampling_case("nearest_2d_down", {1, 1, 5, 7}, upsampling_scaled({0.6, 0.45}, kNearest));
  check_upsampling_case("nearest_3d_size", {1, 1, 2, 3, 4}, upsampling_sized({3, 5, 6}, kNearest));
  check_upsampling_case("nearest_exact_1d", {1, 2, 5}, upsampling_scaled({1.7}, kNearestExact));
  check_upsampling_case("nearest_exact_2d", {1, 1, 5, 4}, upsampling_sized({3, 7}, kNearestExact));
  check_upsampling_case("nearest_exact_3d", {1, 1, 3, 2, 4},
                        upsampling_scaled({1.5, 2.0, 0.75}, kNearestExact));
}

// Output == 2 * input with a scale factor other than 2: PyTorch 1.13's CPU forward samples
// floor(dst / 2.1) (0, 0, 0, 1, 1, ...), but its backward takes the old dst / 2 shortcut, so its
// input gradient is not the gradient of its output. ember matches the output, and its gradient is
// the true one (what the index_select's backward gives, and gradcheck confirms).
TEST(Upsampling, NearestTwiceSizeMatchesPyTorchOutput) {
  UpsamplingWarnings quiet;
  WarningUtils::WarningHandlerGuard guard(&quiet);
  const Tensor x = filled({1, 1, 5}, 0).requires_grad_();
  const Tensor y = F::interpolate(x, upsampling_scaled({2.1}, kNearest));
  const std::vector<double> want =
      upsampling_reference().at("nearest_1d_twice_shortcut").at("output0");
  EXPECT_EQ(y.detach().to_vector<double>(), want);
  (y * cos(0.31 * arange(10, TensorOptions(kFloat64)).view({1, 1, 10}))).sum().backward();
  // Input 0 feeds outputs 0, 1 and 2; input 4 only output 9.
  const std::vector<double> grad = x.grad().to_vector<double>();
  EXPECT_NEAR(grad[0], 1 + std::cos(0.31) + std::cos(0.62), 1e-12);
  EXPECT_NEAR(grad[4], std::cos(0.31 * 9), 1e-12);
}

TEST(Upsampling, LinearModesMatchPyTorch) {
  check_upsampling_case("linear_1d_align", {2, 2, 5},
                        upsampling_sized({9}, kLinear).align_corners(true));
  check_upsampling_case("linear_1d_half", {2, 2, 5},
                        upsampling_scaled({1.3}, kLinear).align_corners(false));
  check_upsampling_case("linear_1d_down", {1, 2, 9},
                        upsampling_sized({4}, kLinear).align_corners(false));
  check_upsampling_case("linear_1d_same_size", {1, 1, 4},
                        upsampling_scaled({1.1}, kLinear).align_corners(false));
  check_upsampling_case("linear_1d_align_one", {1, 2, 4},
                        upsampling_sized({1}, kLinear).align_corners(true));
  check_upsampling_case("bilinear_2d_scale", {1, 2, 4, 5},
                        upsampling_scaled({1.5, 0.7}, kBilinear).align_corners(false));
  check_upsampling_case("bilinear_2d_align", {1, 2, 4, 5},
                        upsampling_sized({7, 3}, kBilinear).align_corners(true));
  check_upsampling_case(
      "bilinear_2d_recompute", {1, 1, 5, 4},
      upsampling_scaled({1.7, 2.3}, kBilinear).align_corners(false).recompute_scale_factor(true));
  check_upsampling_case("trilinear_3d_scale", {1, 1, 3, 4, 2},
                        upsampling_scaled({2.0, 1.5, 2.5}, kTrilinear).align_corners(false));
  check_upsampling_case("trilinear_3d_align", {1, 2, 2, 3, 4},
                        upsampling_sized({3, 5, 2}, kTrilinear).align_corners(true));
}

TEST(Upsampling, BicubicAndAreaMatchPyTorch) {
  check_upsampling_case("bicubic_2d_size", {1, 2, 4, 5},
                        upsampling_sized({7, 8}, kBicubic).align_corners(false));
  check_upsampling_case("bicubic_2d_align", {1, 1, 5, 4},
                        upsampling_sized({3, 9}, kBicubic).align_corners(true));
  check_upsampling_case("bicubic_2d_scale", {1, 1, 4, 6},
                        upsampling_scaled({1.6, 0.5}, kBicubic).align_corners(false));
  check_upsampling_case(
      "bicubic_2d_recompute", {1, 1, 4, 4},
      upsampling_scaled({1.3, 2.1}, kBicubic).align_corners(false).recompute_scale_factor(true));
  check_upsampling_case("area_1d", {1, 2, 7}, upsampling_sized({3}, kArea));
  check_upsampling_case("area_2d", {1, 2, 6, 5}, upsampling_scaled({0.5, 0.7}, kArea));
  check_upsampling_case("area_3d", {1, 1, 4, 6, 5}, upsampling_sized({2, 3, 4}, kArea));
}

TEST(Upsampling, SmallCasesByHand) {
  const Tensor x = tensor(std::vector<float>{1, 2, 4}).reshape({1, 1, 3});
  EXPECT_EQ(F::interpolate(x, upsampling_scaled({2}, kNearest)).to_vector<float>(),
            (std::vector<float>{1, 1, 2, 2, 4, 4}));
  EXPECT_EQ(
      F::interpolate(x, upsampling_sized({5}, kLinear).align_corners(true)).to_vector<float>(),
      (std::vector<float>{1, 1.5, 2, 3, 4}));
  EXPECT_EQ(F::interpolate(x, upsampling_sized({1}, kArea)).to_vector<float>(),
            (std::vector<float>{7.0f / 3}));
  // Nearest keeps integer dtypes, as PyTorch's.
  const Tensor ints = arange(4, kInt64).view({1, 1, 2, 2});
  EXPECT_EQ(F::interpolate(ints, upsampling_scaled({1, 2}, kNearest)).to_vector<int64_t>(),
            (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
}

// float input: float output, with the double results to float precision.
TEST(Upsampling, FloatInputKeepsItsDtype) {
  UpsamplingWarnings quiet;
  WarningUtils::WarningHandlerGuard guard(&quiet);
  const Tensor x = filled({2, 3, 5, 4}, 0);
  for (const auto& options :
       {upsampling_scaled({1.5, 2.5}, kBilinear).align_corners(false),
        upsampling_sized({7, 3}, kBicubic).align_corners(true),
        upsampling_scaled({0.6, 1.7}, kNearestExact), upsampling_sized({3, 2}, kArea)}) {
    const Tensor y = F::interpolate(x.to(kFloat32), options);
    EXPECT_EQ(y.scalar_type(), kFloat32);
    EXPECT_TRUE(allclose(y.to(kFloat64), F::interpolate(x, options), 1e-5, 1e-6));
  }
}

TEST(Upsampling, Gradchecks) {
  manual_seed(11);
  using V = std::vector<Tensor>;
  UpsamplingWarnings quiet;
  WarningUtils::WarningHandlerGuard guard(&quiet);
  struct GradCase {
    std::string what;
    UpsamplingSizes shape;
    F::InterpolateFuncOptions options;
  };
  const std::vector<GradCase> cases = {
      {"nearest 2d", {1, 2, 3, 4}, upsampling_scaled({1.5, 2}, kNearest)},
      {"nearest-exact 1d", {2, 1, 5}, upsampling_sized({3}, kNearestExact)},
      {"linear", {1, 2, 4}, upsampling_sized({7}, kLinear).align_corners(false)},
      {"bilinear align",
       {1, 1, 3, 4},
       upsampling_scaled({1.5, 0.75}, kBilinear).align_corners(true)},
      {"bicubic", {1, 1, 4, 3}, upsampling_sized({6, 5}, kBicubic).align_corners(false)},
      {"trilinear",
       {1, 1, 2, 3, 2},
       upsampling_scaled({1.5, 1, 2}, kTrilinear).align_corners(false)},
      {"area", {1, 2, 5, 4}, upsampling_sized({3, 2}, kArea)},
  };
  for (const GradCase& c : cases) {
    const F::InterpolateFuncOptions options = c.options;
    gradcheck("interpolate " + c.what,
              [options](const V& v) { return F::interpolate(v[0], options); },
              {randn(c.shape, kFloat64)});
  }
}

TEST(Upsampling, WarnsAsLibTorch) {
  UpsamplingWarnings seen;
  WarningUtils::WarningHandlerGuard guard(&seen);
  const Tensor x = ones({1, 1, 4});
  F::interpolate(x, upsampling_sized({6}, kLinear));
  ASSERT_EQ(seen.messages.size(), 1u);
  EXPECT_NE(seen.messages[0].find("Default upsampling behavior when mode=kLinear is changed to "
                                  "align_corners=False since 0.4.0"),
            std::string::npos);
  F::interpolate(x, upsampling_scaled({1.5}, kNearest));
  ASSERT_EQ(seen.messages.size(), 2u);
  EXPECT_NE(seen.messages[1].find("please set recompute_scale_factor=True"), std::string::npos);
  // Integer scale factors, or recompute_scale_factor given: no warning.
  F::interpolate(x, upsampling_scaled({2}, kNearest));
  F::interpolate(x, upsampling_scaled({1.5}, kNearest).recompute_scale_factor(false));
  EXPECT_EQ(seen.messages.size(), 2u);
}

TEST(Upsampling, ErrorsSayWhatToChange) {
  UpsamplingWarnings quiet;
  WarningUtils::WarningHandlerGuard guard(&quiet);
  auto interp_error = [](const Tensor& x, const F::InterpolateFuncOptions& options) {
    return error_of<ValueError>([&] { F::interpolate(x, options); });
  };
  const Tensor x3 = ones({1, 1, 4}), x4 = ones({1, 1, 4, 4}), x5 = ones({1, 1, 2, 2, 2});
  EXPECT_EQ(interp_error(x3, upsampling_sized({4, 4}, kBilinear)),
            "[interpolate] Got 3D input, but bilinear mode needs 4D input ([N, C, H, W])");
  EXPECT_EQ(interp_error(x4, upsampling_sized({4}, kLinear)),
            "[interpolate] Got 4D input, but linear mode needs 3D input ([N, C, W])");
  EXPECT_EQ(interp_error(x4, upsampling_sized({4, 4, 4}, kTrilinear)),
            "[interpolate] Got 4D input, but trilinear mode needs 5D input ([N, C, D, H, W])");
  EXPECT_EQ(interp_error(x5, upsampling_sized({4, 4}, kBicubic)),
            "[interpolate] Got 5D input, but bicubic mode needs 4D input ([N, C, H, W])");
  EXPECT_NE(interp_error(ones({4, 4}), upsampling_sized({4}, kNearest))
                .find("[interpolate] Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                      "2D)"),
            std::string::npos);
  EXPECT_EQ(interp_error(x3, F::InterpolateFuncOptions()),
            "[interpolate] either size or scale_factor should be defined");
  EXPECT_EQ(interp_error(x3, upsampling_sized({4}, kNearest).scale_factor(UpsamplingScales{2})),
            "[interpolate] only one of size or scale_factor should be defined");
  EXPECT_EQ(interp_error(x4, upsampling_scaled({2}, kNearest)),
            "[interpolate] scale_factor shape must match input shape. Input is 2D, scale_factor "
            "size is [2]; give one scale factor per spatial dim");
  EXPECT_NE(
      interp_error(x4, upsampling_sized({2, 3, 4}, kNearest)).find("size has 3 entries [2, 3, 4]"),
      std::string::npos);
  EXPECT_EQ(interp_error(x3, upsampling_sized({8}, kNearest).align_corners(false)),
            "[interpolate] align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear (got mode kNearest); leave align_corners "
            "unset");
  EXPECT_NE(interp_error(x3, upsampling_sized({2}, kArea).align_corners(true))
                .find("(got mode kArea); leave align_corners unset"),
            std::string::npos);
  EXPECT_NE(interp_error(x3, upsampling_scaled({0.2}, kNearest))
                .find("Input and output sizes should be greater than 0, but got input spatial "
                      "sizes [4] and output size [0]"),
            std::string::npos);
  EXPECT_NE(interp_error(x4, upsampling_sized({2, 2}, kBilinear).antialias(true))
                .find("antialias=true is not implemented in ember"),
            std::string::npos);
  EXPECT_NE(interp_error(x3, upsampling_sized({2}, kLinear).antialias(true))
                .find("Anti-alias option is only supported for bilinear and bicubic modes"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              F::interpolate(arange(4, kInt64).view({1, 1, 4}),
                             upsampling_sized({6}, kLinear).align_corners(false));
            }).find("needs a floating-point input"),
            std::string::npos);
}

std::string upsampling_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

TEST(Upsampling, UpsampleLayerResamplesAndPrintsAsLibTorch) {
  nn::Upsample by_scale(
      nn::UpsampleOptions().scale_factor(UpsamplingScales{2, 1.5}).mode(kBilinear));
  EXPECT_EQ(upsampling_printed(*by_scale),
            "torch::nn::Upsample(scale_factor=[2, 1.5], mode=kBilinear)");
  nn::Upsample by_size(nn::UpsampleOptions().size(UpsamplingSizes{4, 6}));
  EXPECT_EQ(upsampling_printed(*by_size), "torch::nn::Upsample(size=[4, 6], mode=kNearest)");
  UpsamplingWarnings quiet;
  WarningUtils::WarningHandlerGuard guard(&quiet);
  const Tensor x = randn({1, 2, 3, 4}, kFloat64);
  EXPECT_EQ(by_size(x).sizes(), IntArrayRef({1, 2, 4, 6}));
  nn::Upsample bicubic(
      nn::UpsampleOptions().size(UpsamplingSizes{5, 7}).mode(kBicubic).align_corners(true));
  EXPECT_TRUE(allclose(bicubic(x),
                       F::interpolate(x, upsampling_sized({5, 7}, kBicubic).align_corners(true))));
  EXPECT_EQ(by_scale(x).sizes(), IntArrayRef({1, 2, 6, 6}));
  EXPECT_EQ(upsampling_printed(*bicubic.ptr()->clone()),
            "torch::nn::Upsample(size=[5, 7], mode=kBicubic)");
}

}  // namespace
}  // namespace ember::test
