// F::affine_grid and F::grid_sample against PyTorch 1.13 (vision_reference.h, made by
// gen_vision_reference.py from the same cases): outputs and gradients in double for every mode,
// padding mode and align_corners, 4-D and 5-D; then small cases by hand, gradchecks, the
// align_corners warning and the errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "ember/warning.h"
#include "nn/reference_case.h"
#include "nn/vision_reference.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using VisionTensors = std::vector<Tensor>;

// gen_vision_reference.py's grid: 1.4 * filled + 0.1, reaching outside [-1, 1].
Tensor vision_grid_of(const Tensor& filled_grid) { return 1.4 * filled_grid + 0.1; }

void check_affine_case(const std::string& name, std::vector<int64_t> theta_shape,
                       std::vector<int64_t> size, bool align_corners) {
  check_reference_case(vision_reference(), name, {std::move(theta_shape)}, {0},
                       [&](const VisionTensors& v) {
                         return VisionTensors{F::affine_grid(v[0], size, align_corners)};
                       });
}

void check_sample_case(const std::string& name, std::vector<int64_t> input_shape,
                       std::vector<int64_t> grid_shape, F::GridSampleFuncOptions options) {
  check_reference_case(vision_reference(), name, {std::move(input_shape), std::move(grid_shape)},
                       {0, 1}, [&](const VisionTensors& v) {
                         return VisionTensors{F::grid_sample(v[0], vision_grid_of(v[1]), options)};
                       });
}

struct VisionMode {
  const char* name;
  F::GridSampleFuncOptions::mode_t mode;
};
struct VisionPadding {
  const char* name;
  F::GridSampleFuncOptions::padding_mode_t padding_mode;
};
const VisionPadding kVisionPaddings[] = {
    {"zeros", kZeros}, {"border", kBorder}, {"reflection", kReflection}};

TEST(Vision, AffineGridMatchesPyTorch) {
  check_affine_case("affine_2d_ac", {2, 2, 3}, {2, 3, 4, 5}, true);
  check_affine_case("affine_2d_noac", {2, 2, 3}, {2, 3, 4, 5}, false);
  check_affine_case("affine_3d_ac", {2, 3, 4}, {2, 1, 3, 4, 2}, true);
  check_affine_case("affine_3d_noac", {2, 3, 4}, {2, 1, 3, 4, 2}, false);
  check_affine_case("affine_2d_single", {1, 2, 3}, {1, 1, 1, 3}, false);
}

TEST(Vision, GridSample4dMatchesPyTorch) {
  const VisionMode modes[] = {
      {"bilinear", kBilinear}, {"nearest", kNearest}, {"bicubic", kBicubic}};
  for (const VisionMode& m : modes) {
    for (const VisionPadding& p : kVisionPaddings) {
      for (bool align_corners : {true, false}) {
        check_sample_case(
            std::string("sample4d_") + m.name + "_" + p.name + (align_corners ? "_ac" : "_noac"),
            {2, 2, 4, 5}, {2, 3, 4, 2},
            F::GridSampleFuncOptions()
                .mode(m.mode)
                .padding_mode(p.padding_mode)
                .align_corners(align_corners));
      }
    }
  }
}

TEST(Vision, GridSample5dMatchesPyTorch) {
  const VisionMode modes[] = {{"bilinear", kBilinear}, {"nearest", kNearest}};
  for (const VisionMode& m : modes) {
    for (const VisionPadding& p : kVisionPaddings) {
      for (bool align_corners : {true, false}) {
        check_sample_case(
            std::string("sample5d_") + m.name + "_" + p.name + (align_corners ? "_ac" : "_noac"),
            {1, 2, 3, 4, 3}, {1, 2, 3, 2, 3},
            F::GridSampleFuncOptions()
                .mode(m.mode)
                .padding_mode(p.padding_mode)
                .align_corners(align_corners));
      }
    }
  }
}

TEST(Vision, GridSampleEdgeCasesMatchPyTorch) {
  // One pixel high: with align_corners, reflection has no span to reflect in.
  check_sample_case("sample4d_single_row_reflection", {1, 2, 1, 4}, {1, 2, 3, 2},
                    F::GridSampleFuncOptions().padding_mode(kReflection).align_corners(true));
  check_sample_case("sample4d_single_row_border", {1, 2, 1, 4}, {1, 2, 3, 2},
                    F::GridSampleFuncOptions().padding_mode(kBorder).align_corners(true));
  check_reference_case(
      vision_reference(), "affine_then_sample", {{2, 2, 4, 5}, {2, 2, 3}}, {0, 1},
      [](const VisionTensors& v) {
        return VisionTensors{F::grid_sample(v[0], F::affine_grid(v[1], {2, 2, 3, 3}, false),
                                            F::GridSampleFuncOptions().align_corners(false))};
      });
}

TEST(Vision, SmallCasesByHand) {
  // LibTorch's defaults: bilinear, zeros, align_corners unset (false, with a warning).
  const F::GridSampleFuncOptions defaults;
  EXPECT_TRUE(std::holds_alternative<enumtype::kBilinear>(defaults.mode()));
  EXPECT_TRUE(std::holds_alternative<enumtype::kZeros>(defaults.padding_mode()));
  EXPECT_FALSE(defaults.align_corners().has_value());
  const Tensor image = arange(12, kFloat32).view({1, 1, 3, 4});
  // The identity transform with align_corners samples every pixel centre: the image itself.
  const Tensor identity = tensor(std::vector<float>{1, 0, 0, 0, 1, 0}).view({1, 2, 3});
  const Tensor grid = F::affine_grid(identity, {1, 1, 3, 4}, true);
  EXPECT_EQ(grid.sizes(), IntArrayRef({1, 3, 4, 2}));
  EXPECT_TRUE(
      allclose(F::grid_sample(image, grid, F::GridSampleFuncOptions().align_corners(true)), image));
  EXPECT_TRUE(allclose(
      F::grid_sample(image, grid, F::GridSampleFuncOptions().mode(kNearest).align_corners(true)),
      image));
  // Halfway between pixels 1 and 2 of the first row (x = 0 with align_corners): their mean;
  // nearest rounds half to even (pixel 2); far outside reads zeros, or the edge with kBorder.
  const Tensor points = tensor(std::vector<float>{0, -1, 5, -1}).view({1, 1, 2, 2});
  auto sampled = [&](F::GridSampleFuncOptions options) {
    return F::grid_sample(image, points, options.align_corners(true))
        .contiguous()
        .to_vector<float>();
  };
  const std::vector<float> bilinear = sampled(F::GridSampleFuncOptions());
  EXPECT_FLOAT_EQ(bilinear[0], 1.5f);
  EXPECT_FLOAT_EQ(bilinear[1], 0.f);
  const std::vector<float> nearest = sampled(F::GridSampleFuncOptions().mode(kNearest));
  EXPECT_FLOAT_EQ(nearest[0], 2.f);
  const std::vector<float> border = sampled(F::GridSampleFuncOptions().padding_mode(kBorder));
  EXPECT_FLOAT_EQ(border[1], 3.f);
  // nearest is piecewise constant in the grid: a grid that alone requires grad gets zeros.
  const Tensor nearest_grid = points.clone().requires_grad_();
  F::grid_sample(image, nearest_grid, F::GridSampleFuncOptions().mode(kNearest).align_corners(true))
      .sum()
      .backward();
  ASSERT_TRUE(nearest_grid.grad().defined());
  EXPECT_TRUE(equal(nearest_grid.grad(), zeros({1, 1, 2, 2})));
  // An empty batch gives an empty result of the right shape.
  EXPECT_EQ(F::grid_sample(zeros({0, 2, 3, 3}), zeros({0, 4, 5, 2}),
                           F::GridSampleFuncOptions().align_corners(false))
                .sizes(),
            IntArrayRef({0, 2, 4, 5}));
  // LibTorch's ATen names, with its mode numbering.
  EXPECT_TRUE(equal(grid_sampler(image, grid, 1, 0, true), image));
  EXPECT_TRUE(equal(affine_grid_generator(identity, {1, 1, 3, 4}, true), grid));
}

TEST(Vision, Gradchecks) {
  manual_seed(11);
  using V = std::vector<Tensor>;
  // Grids in (-1.3, 1.3), off the kinks (integer pixel positions and the padding's bounds),
  // which random points miss.
  const Tensor grid4 = 2.6 * rand({1, 3, 2, 2}, kFloat64) - 1.3;
  const Tensor grid5 = 2.6 * rand({1, 2, 2, 2, 3}, kFloat64) - 1.3;
  const VisionMode modes[] = {{"bilinear", kBilinear}, {"bicubic", kBicubic}};
  for (const VisionMode& m : modes) {
    for (const VisionPadding& p : kVisionPaddings) {
      const auto options =
          F::GridSampleFuncOptions().mode(m.mode).padding_mode(p.padding_mode).align_corners(false);
      gradcheck(std::string("grid_sample 4d ") + m.name + " " + p.name,
                [options](const V& v) { return F::grid_sample(v[0], v[1], options); },
                {randn({1, 2, 3, 4}, kFloat64), grid4});
    }
  }
  for (const VisionPadding& p : kVisionPaddings) {
    const auto options =
        F::GridSampleFuncOptions().padding_mode(p.padding_mode).align_corners(true);
    gradcheck(std::string("grid_sample 5d bilinear ") + p.name,
              [options](const V& v) { return F::grid_sample(v[0], v[1], options); },
              {randn({1, 2, 2, 3, 2}, kFloat64), grid5});
  }
  // nearest: the input's gradient only (piecewise constant in the grid).
  gradcheck("grid_sample nearest",
            [grid4](const V& v) {
              return F::grid_sample(v[0], grid4,
                                    F::GridSampleFuncOptions().mode(kNearest).align_corners(true));
            },
            {randn({1, 2, 3, 4}, kFloat64)});
  gradcheck("affine_grid 2d",
            [](const V& v) {
              return F::affine_grid(v[0], {2, 1, 3, 2});
            },
            {randn({2, 2, 3}, kFloat64)});
  gradcheck("affine_grid 3d",
            [](const V& v) {
              return F::affine_grid(v[0], {1, 1, 2, 3, 2}, true);
            },
            {randn({1, 3, 4}, kFloat64)});
}

class VisionWarnings : public WarningHandler {
 public:
  void process(const Warning& w) override { messages.push_back(w.msg()); }
  std::vector<std::string> messages;
};

TEST(Vision, UnsetAlignCornersWarnsAsLibTorch) {
  VisionWarnings warnings;
  WarningUtils::WarningHandlerGuard guard(&warnings);
  const Tensor input = randn({1, 1, 3, 3}), grid = zeros({1, 2, 2, 2});
  const Tensor unset = F::grid_sample(input, grid);
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("Default grid_sample and affine_grid behavior has changed to "
                                      "align_corners=False since 1.3.0"),
            std::string::npos);
  EXPECT_TRUE(
      equal(unset, F::grid_sample(input, grid, F::GridSampleFuncOptions().align_corners(false))));
  EXPECT_EQ(warnings.messages.size(), 1u);
}

TEST(Vision, ErrorsSayWhatToChange) {
  const Tensor image = ones({1, 2, 3, 3});
  auto sample_error = [](const Tensor& input, const Tensor& grid,
                         F::GridSampleFuncOptions options = F::GridSampleFuncOptions()) {
    std::string message =
        error_of<ValueError>([&] { F::grid_sample(input, grid, options.align_corners(false)); });
    if (message.empty()) {
      message =
          error_of<TypeError>([&] { F::grid_sample(input, grid, options.align_corners(false)); });
    }
    return message;
  };
  EXPECT_NE(sample_error(image, ones({2, 2, 2, 2}))
                .find("[grid_sample] expected grid and input to have same batch size, but got "
                      "input with sizes [1, 2, 3, 3] and grid with sizes [2, 2, 2, 2]"),
            std::string::npos);
  EXPECT_NE(sample_error(image, ones({1, 2, 2, 3}))
                .find("expected grid to have size 2 in last dimension, but got grid with sizes "
                      "[1, 2, 2, 3]"),
            std::string::npos);
  EXPECT_NE(sample_error(image, ones({1, 2, 2, 2, 3}))
                .find("expected grid and input to have same number of dimensions"),
            std::string::npos);
  EXPECT_NE(sample_error(ones({2, 3, 3}), ones({2, 3, 3}))
                .find("expected a 4-D input [N, C, H, W] or a 5-D input"),
            std::string::npos);
  EXPECT_NE(
      sample_error(ones({1, 1, 0, 3}), ones({1, 2, 2, 2})).find("with dimension 2 being empty"),
      std::string::npos);
  EXPECT_NE(sample_error(ones({1, 1, 2, 2, 2}), ones({1, 2, 2, 2, 3}),
                         F::GridSampleFuncOptions().mode(kBicubic))
                .find("bicubic interpolation only supports 4D input"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              F::grid_sample(image, ones({1, 2, 2, 2}, kFloat64),
                             F::GridSampleFuncOptions().align_corners(true));
            })
                .find("expected input and grid to have the same dtype, but input is Float and grid "
                      "is Double"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              F::grid_sample(ones({1, 2, 3, 3}, kInt64), ones({1, 2, 2, 2}, kInt64),
                             F::GridSampleFuncOptions().align_corners(true));
            }).find("expected a floating point input"),
            std::string::npos);

  EXPECT_NE(error_of<TypeError>([] {
              F::affine_grid(ones({1, 2, 3}, kInt64), {1, 1, 2, 2});
            }).find("[affine_grid] Expected theta to have floating point type"),
            std::string::npos);
  EXPECT_NE(
      error_of<ValueError>([] {
        F::affine_grid(ones({1, 3, 4}), {1, 1, 2, 2});
      })
          .find("[affine_grid] Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                "[1, 1, 2, 2]. Got [1, 3, 4]."),
      std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              F::affine_grid(ones({1, 2, 3}), {1, 1, 2, 2, 2});
            }).find("Expected a batch of 3D affine matrices of shape Nx3x4"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              F::affine_grid(ones({1, 2, 3}), {1, 2, 2});
            }).find("affine_grid only supports 4D and 5D sizes"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              F::affine_grid(ones({1, 2, 3}), {1, 1, 0, 2});
            }).find("Expected non-zero, positive output size. Got [1, 1, 0, 2]"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              F::affine_grid(ones({2, 2, 3}), {1, 1, 2, 2});
            }).find("Expected theta's batch size 2 to equal size[0] = 1"),
            std::string::npos);
}

}  // namespace
}  // namespace ember::test
