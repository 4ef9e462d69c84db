// Options of F::grid_sample, as LibTorch 1.13's torch/nn/options/vision.h (F::affine_grid takes
// its arguments directly).
#pragma once

#include <optional>
#include <variant>

#include "ember/arg.h"
#include "ember/enum.h"

namespace ember::nn::functional {

// F::grid_sample(input, grid, GridSampleFuncOptions().mode(kNearest).padding_mode(kBorder)
// .align_corners(true)). mode kBicubic (4-D input only) is an ember addition: LibTorch 1.13's
// C++ options offer kBilinear and kNearest, its Python API all three.
struct GridSampleFuncOptions {
  using mode_t = std::variant<enumtype::kBilinear, enumtype::kNearest, enumtype::kBicubic>;
  using padding_mode_t = std::variant<enumtype::kZeros, enumtype::kBorder, enumtype::kReflection>;

  // How an output value is interpolated from the input. Default: kBilinear.
  EMBER_ARG(mode_t, mode) = kBilinear;
  // What a sample outside the input reads. Default: kZeros.
  EMBER_ARG(padding_mode_t, padding_mode) = kZeros;
  // Whether -1 and 1 are the centres of the corner pixels (true) or their outer edges (false).
  // Unset means false, with LibTorch's warning that the default changed in 1.3.0.
  EMBER_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

}  // namespace ember::nn::functional
