// F::interpolate with LibTorch 1.13's InterpolateFuncOptions: nearest, nearest-exact, linear,
// bilinear, bicubic, trilinear and area resampling of [N, C, *spatial] inputs (3-D, 4-D or 5-D as
// the mode requires). Each spatial dim is resampled in turn with index_select and per-position
// weights, so autograd and every device come from existing ops; area is adaptive average pooling.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ember/macros.h"
#include "ember/nn/options/upsampling.h"
#include "ember/tensor.h"

namespace ember::nn::functional {

namespace detail {
// LibTorch's detail::interpolate: the options' fields one by one (what Upsample calls).
EMBER_API Tensor interpolate(const Tensor& input, const std::optional<std::vector<int64_t>>& size,
                             const std::optional<std::vector<double>>& scale_factor,
                             InterpolateFuncOptions::mode_t mode, std::optional<bool> align_corners,
                             std::optional<bool> recompute_scale_factor, bool antialias);
}  // namespace detail

inline Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options = {}) {
  return detail::interpolate(input, options.size(), options.scale_factor(), options.mode(),
                             options.align_corners(), options.recompute_scale_factor(),
                             options.antialias());
}

}  // namespace ember::nn::functional
