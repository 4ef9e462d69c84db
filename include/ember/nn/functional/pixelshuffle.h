// F::pixel_shuffle and F::pixel_unshuffle with LibTorch's options.
#pragma once

#include "ember/nn/options/pixelshuffle.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor pixel_shuffle(const Tensor& input, const PixelShuffleFuncOptions& options) {
  return ember::pixel_shuffle(input, options.upscale_factor());
}

inline Tensor pixel_unshuffle(const Tensor& input, const PixelUnshuffleFuncOptions& options) {
  return ember::pixel_unshuffle(input, options.downscale_factor());
}

}  // namespace ember::nn::functional
