// Upsample, as LibTorch 1.13's torch/nn/modules/upsampling.h: F::interpolate with the module's
// size or scale_factor, mode and align_corners.
#pragma once

#include <ostream>

#include "ember/nn/functional/upsampling.h"
#include "ember/nn/module.h"
#include "ember/nn/options/upsampling.h"

namespace ember::nn {

class EMBER_API UpsampleImpl : public Cloneable<UpsampleImpl> {
 public:
  explicit UpsampleImpl(const UpsampleOptions& options_ = {})
      : Cloneable("Upsample"), options(options_) {}
  void reset() override {}
  // "torch::nn::Upsample(scale_factor=[2, 2], mode=kNearest)" or "...(size=[4, 6], mode=...)".
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  UpsampleOptions options;
};
EMBER_MODULE(Upsample);

}  // namespace ember::nn
