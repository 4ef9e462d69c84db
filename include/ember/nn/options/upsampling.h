// Options of the Upsample module and of F::interpolate, as LibTorch 1.13's
// torch/nn/options/upsampling.h: an output size or per-dim scale factors (exactly one of the
// two), the interpolation mode, and align_corners for the interpolating modes.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "ember/arg.h"
#include "ember/enum.h"

namespace ember::nn {

struct UpsampleOptions {
  // The output's spatial size, one entry per spatial dim.
  EMBER_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  // The multiplier of each spatial dim.
  EMBER_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  using mode_t = std::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear,
                              enumtype::kBicubic, enumtype::kTrilinear>;
  EMBER_ARG(mode_t, mode) = kNearest;
  // Whether the corner samples of input and output line up (linear, bilinear, bicubic and
  // trilinear only); unset means false.
  EMBER_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

namespace functional {

struct InterpolateFuncOptions {
  using mode_t =
      std::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                   enumtype::kTrilinear, enumtype::kArea, enumtype::kNearestExact>;
  EMBER_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  EMBER_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  EMBER_ARG(mode_t, mode) = kNearest;
  EMBER_ARG(std::optional<bool>, align_corners) = std::nullopt;
  // True: the sampling uses in / out of the computed output size rather than 1 / scale_factor.
  EMBER_ARG(std::optional<bool>, recompute_scale_factor) = std::nullopt;
  // Anti-aliased downsampling: not implemented in ember, so true is refused.
  EMBER_ARG(bool, antialias) = false;
};

}  // namespace functional

}  // namespace ember::nn
