// InstanceNorm1d/2d/3d, as LibTorch's torch/nn/modules/instancenorm.h: each (sample, channel)
// normalised over its positions (F::instance_norm), with BatchNorm's state (NormImplBase) but
// neither affine parameters nor running statistics unless asked.
#pragma once

#include <cstdint>
#include <ostream>
#include <utility>

#include "ember/nn/functional/instancenorm.h"
#include "ember/nn/layers.h"
#include "ember/nn/options/instancenorm.h"

namespace ember::nn {

// D spatial dims: takes [N, C, *D] or, unbatched, [C, *D]. Normalises with the running
// statistics only in eval() with track_running_stats; training updates them.
template <int64_t D, class Derived>
class EMBER_API InstanceNormImpl : public NormImplBase<Derived, InstanceNormOptions> {
 public:
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;

 protected:
  InstanceNormImpl(const char* type_name, InstanceNormOptions options)
      : NormImplBase<Derived, InstanceNormOptions>(type_name, std::move(options)) {}
};

class EMBER_API InstanceNorm1dImpl : public InstanceNormImpl<1, InstanceNorm1dImpl> {
 public:
  explicit InstanceNorm1dImpl(InstanceNormOptions options)
      : InstanceNormImpl("InstanceNorm1d", std::move(options)) {}
};
EMBER_MODULE(InstanceNorm1d);

class EMBER_API InstanceNorm2dImpl : public InstanceNormImpl<2, InstanceNorm2dImpl> {
 public:
  explicit InstanceNorm2dImpl(InstanceNormOptions options)
      : InstanceNormImpl("InstanceNorm2d", std::move(options)) {}
};
EMBER_MODULE(InstanceNorm2d);

class EMBER_API InstanceNorm3dImpl : public InstanceNormImpl<3, InstanceNorm3dImpl> {
 public:
  explicit InstanceNorm3dImpl(InstanceNormOptions options)
      : InstanceNormImpl("InstanceNorm3d", std::move(options)) {}
};
EMBER_MODULE(InstanceNorm3d);

}  // namespace ember::nn
