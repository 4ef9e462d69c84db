// Options of PixelShuffle and PixelUnshuffle and their F:: forms, as LibTorch's
// torch/nn/options/pixelshuffle.h.
#pragma once

#include <cstdint>

#include "ember/arg.h"

namespace ember::nn {

struct PixelShuffleOptions {
  /* implicit */ PixelShuffleOptions(int64_t upscale_factor)  // NOLINT
      : upscale_factor_(upscale_factor) {}
  EMBER_ARG(int64_t, upscale_factor);
};

struct PixelUnshuffleOptions {
  /* implicit */ PixelUnshuffleOptions(int64_t downscale_factor)  // NOLINT
      : downscale_factor_(downscale_factor) {}
  EMBER_ARG(int64_t, downscale_factor);
};

namespace functional {
using PixelShuffleFuncOptions = PixelShuffleOptions;
using PixelUnshuffleFuncOptions = PixelUnshuffleOptions;
}  // namespace functional

}  // namespace ember::nn
