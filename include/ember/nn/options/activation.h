// Options of the activations (ReLU, GELU, Softmax, Softmin, LogSoftmax) and their F:: forms, as
// LibTorch's torch/nn/options/activation.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ember/arg.h"
#include "ember/dtype.h"

namespace ember::nn {

struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT
  EMBER_ARG(bool, inplace);
};

struct GELUOptions {
  EMBER_ARG(std::string, approximate) = "none";  // or "tanh"
};

struct SoftmaxOptions {
  /* implicit */ SoftmaxOptions(int64_t dim) : dim_(dim) {}  // NOLINT
  EMBER_ARG(int64_t, dim);
};

struct SoftminOptions {
  /* implicit */ SoftminOptions(int64_t dim) : dim_(dim) {}  // NOLINT
  EMBER_ARG(int64_t, dim);
};

struct LogSoftmaxOptions {
  /* implicit */ LogSoftmaxOptions(int64_t dim) : dim_(dim) {}  // NOLINT
  EMBER_ARG(int64_t, dim);
};

namespace functional {
using ReLUFuncOptions = ReLUOptions;
using GELUFuncOptions = GELUOptions;

struct SoftmaxFuncOptions {
  /* implicit */ SoftmaxFuncOptions(int64_t dim) : dim_(dim) {}  // NOLINT
  EMBER_ARG(int64_t, dim);
  EMBER_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

struct SoftminFuncOptions {
  /* implicit */ SoftminFuncOptions(int64_t dim) : dim_(dim) {}  // NOLINT
  EMBER_ARG(int64_t, dim);
  EMBER_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

struct LogSoftmaxFuncOptions {
  /* implicit */ LogSoftmaxFuncOptions(int64_t dim) : dim_(dim) {}  // NOLINT
  EMBER_ARG(int64_t, dim);
  EMBER_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};
}  // namespace functional

}  // namespace ember::nn
