// Options of LayerNorm, F::layer_norm and F::normalize, as LibTorch's
// torch/nn/options/normalization.h.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ember/arg.h"
#include "ember/tensor.h"

namespace ember::nn {

struct LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  EMBER_ARG(std::vector<int64_t>, normalized_shape);
  EMBER_ARG(double, eps) = 1e-5;
  EMBER_ARG(bool, elementwise_affine) = true;
};

namespace functional {
struct LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  EMBER_ARG(std::vector<int64_t>, normalized_shape);
  EMBER_ARG(Tensor, weight) = {};
  EMBER_ARG(Tensor, bias) = {};
  EMBER_ARG(double, eps) = 1e-5;
};

struct NormalizeFuncOptions {
  EMBER_ARG(double, p) = 2.0;
  EMBER_ARG(int64_t, dim) = 1;
  EMBER_ARG(double, eps) = 1e-12;
  EMBER_ARG(std::optional<Tensor>, out) = std::nullopt;  // written in place when set
};
}  // namespace functional

}  // namespace ember::nn
