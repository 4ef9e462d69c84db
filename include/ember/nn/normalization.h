// GroupNorm and LocalResponseNorm, as LibTorch's torch/nn/modules/normalization.h (LayerNorm,
// its sibling there, is in layers.h).
#pragma once

#include <cstdint>
#include <ostream>

#include "ember/nn/functional/normalization.h"
#include "ember/nn/module.h"
#include "ember/nn/options/normalization.h"

namespace ember::nn {

// Normalises each group of num_channels / num_groups channels (F::group_norm), then scales and
// shifts each channel by weight and bias when affine.
class EMBER_API GroupNormImpl : public Cloneable<GroupNormImpl> {
 public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels)
      : GroupNormImpl(GroupNormOptions(num_groups, num_channels)) {}
  explicit GroupNormImpl(const GroupNormOptions& options_);
  void reset() override;    // registers weight and bias ([num_channels]) when affine
  void reset_parameters();  // weight = 1, bias = 0
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
  GroupNormOptions options;
  Tensor weight, bias;
};
EMBER_MODULE(GroupNorm);

class EMBER_API LocalResponseNormImpl : public Cloneable<LocalResponseNormImpl> {
 public:
  /* implicit */ LocalResponseNormImpl(int64_t size)  // NOLINT
      : LocalResponseNormImpl(LocalResponseNormOptions(size)) {}
  explicit LocalResponseNormImpl(const LocalResponseNormOptions& options_)
      : Cloneable("LocalResponseNorm"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(const Tensor& input) { return functional::local_response_norm(input, options); }
  void pretty_print(std::ostream& stream) const override;
  LocalResponseNormOptions options;
};
EMBER_MODULE(LocalResponseNorm);

}  // namespace ember::nn
