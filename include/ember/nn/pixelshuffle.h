// PixelShuffle and PixelUnshuffle, as LibTorch's torch/nn/modules/pixelshuffle.h.
#pragma once

#include <ostream>

#include "ember/nn/functional/pixelshuffle.h"
#include "ember/nn/module.h"
#include "ember/nn/options/pixelshuffle.h"

namespace ember::nn {

// [*, C r^2, H, W] -> [*, C, H r, W r].
class EMBER_API PixelShuffleImpl : public Cloneable<PixelShuffleImpl> {
 public:
  explicit PixelShuffleImpl(const PixelShuffleOptions& options_)
      : Cloneable("PixelShuffle"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(const Tensor& input) { return functional::pixel_shuffle(input, options); }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::PixelShuffle(upscale_factor=" << options.upscale_factor() << ")";
  }
  PixelShuffleOptions options;
};
EMBER_MODULE(PixelShuffle);

// [*, C, H r, W r] -> [*, C r^2, H, W].
class EMBER_API PixelUnshuffleImpl : public Cloneable<PixelUnshuffleImpl> {
 public:
  explicit PixelUnshuffleImpl(const PixelUnshuffleOptions& options_)
      : Cloneable("PixelUnshuffle"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(const Tensor& input) { return functional::pixel_unshuffle(input, options); }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::PixelUnshuffle(downscale_factor=" << options.downscale_factor() << ")";
  }
  PixelUnshuffleOptions options;
};
EMBER_MODULE(PixelUnshuffle);

}  // namespace ember::nn
