// Conv1d and Conv3d, as LibTorch's torch/nn/modules/conv.h (Conv2d lives in layers.h): a
// [out, in / groups, *kernel_size] weight and an optional [out] bias, initialised as PyTorch's,
// over conv1d / conv3d (nn_ops.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "ember/nn/module.h"
#include "ember/nn/options/conv.h"

namespace ember::nn {

class EMBER_API Conv1dImpl : public Cloneable<Conv1dImpl> {
 public:
  explicit Conv1dImpl(Conv1dOptions options);
  Conv1dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<1> kernel_size)
      : Conv1dImpl(Conv1dOptions(in_channels, out_channels, kernel_size)) {}
  void reset() override;
  void reset_parameters();  // kaiming_uniform(a = sqrt 5); bias U(+-1/sqrt(fan_in))
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;

  Conv1dOptions options;
  Tensor weight;  // [out, in / groups, kW]
  Tensor bias;    // [out]
};
EMBER_MODULE(Conv1d);

class EMBER_API Conv3dImpl : public Cloneable<Conv3dImpl> {
 public:
  explicit Conv3dImpl(Conv3dOptions options);
  Conv3dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<3> kernel_size)
      : Conv3dImpl(Conv3dOptions(in_channels, out_channels, kernel_size)) {}
  void reset() override;
  void reset_parameters();  // kaiming_uniform(a = sqrt 5); bias U(+-1/sqrt(fan_in))
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;

  Conv3dOptions options;
  Tensor weight;  // [out, in / groups, kD, kH, kW]
  Tensor bias;    // [out]
};
EMBER_MODULE(Conv3d);

}  // namespace ember::nn
