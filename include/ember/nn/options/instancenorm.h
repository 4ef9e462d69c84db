// Options of InstanceNorm1d/2d/3d and F::instance_norm, as LibTorch's
// torch/nn/options/instancenorm.h.
#pragma once

#include <cstdint>

#include "ember/arg.h"
#include "ember/tensor.h"

namespace ember::nn {

// Unlike BatchNormOptions, neither affine parameters nor running statistics by default, and
// momentum is always a number.
struct InstanceNormOptions {
  /* implicit */ InstanceNormOptions(int64_t num_features)  // NOLINT
      : num_features_(num_features) {}
  EMBER_ARG(int64_t, num_features);
  EMBER_ARG(double, eps) = 1e-5;
  EMBER_ARG(double, momentum) = 0.1;
  EMBER_ARG(bool, affine) = false;
  EMBER_ARG(bool, track_running_stats) = false;
};
using InstanceNorm1dOptions = InstanceNormOptions;
using InstanceNorm2dOptions = InstanceNormOptions;
using InstanceNorm3dOptions = InstanceNormOptions;

namespace functional {
// use_input_stats normalises with each instance's statistics (and updates the running ones when
// given); otherwise with running_mean and running_var.
struct InstanceNormFuncOptions {
  EMBER_ARG(Tensor, running_mean) = Tensor();
  EMBER_ARG(Tensor, running_var) = Tensor();
  EMBER_ARG(Tensor, weight) = Tensor();
  EMBER_ARG(Tensor, bias) = Tensor();
  EMBER_ARG(bool, use_input_stats) = true;
  EMBER_ARG(double, momentum) = 0.1;
  EMBER_ARG(double, eps) = 1e-5;
};
}  // namespace functional

}  // namespace ember::nn
