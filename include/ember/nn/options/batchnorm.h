// Options of BatchNorm1d/2d/3d and of F::batch_norm, as LibTorch's torch/nn/options/batchnorm.h.
#pragma once

#include <cstdint>
#include <optional>

#include "ember/arg.h"
#include "ember/tensor.h"

namespace ember::nn {

// BatchNorm1dOptions, BatchNorm2dOptions and BatchNorm3dOptions are this, as in LibTorch. momentum
// nullopt makes the running statistics a cumulative average (each batch weighs 1 / batches seen).
struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features)  // NOLINT
      : num_features_(num_features) {}
  EMBER_ARG(int64_t, num_features);
  EMBER_ARG(double, eps) = 1e-5;
  EMBER_ARG(std::optional<double>, momentum) = 0.1;
  EMBER_ARG(bool, affine) = true;
  EMBER_ARG(bool, track_running_stats) = true;
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;

namespace functional {
struct BatchNormFuncOptions {
  EMBER_ARG(Tensor, weight) = Tensor();
  EMBER_ARG(Tensor, bias) = Tensor();
  EMBER_ARG(bool, training) = false;
  EMBER_ARG(std::optional<double>, momentum) = 0.1;  // must be set (LibTorch fails on nullopt)
  EMBER_ARG(double, eps) = 1e-5;
};
}  // namespace functional

}  // namespace ember::nn
