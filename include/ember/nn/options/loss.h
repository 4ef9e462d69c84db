// Options of the losses and of their F:: forms (MSELoss, NLLLoss, CrossEntropyLoss,
// BCEWithLogitsLoss), as LibTorch's torch/nn/options/loss.h: the reduction is the variant
// kNone | kMean | kSum, so MSELoss(torch::kSum) and F::mse_loss(a, b, torch::kSum) read as there.
#pragma once

#include <cstdint>
#include <variant>

#include "ember/arg.h"
#include "ember/enum.h"
#include "ember/tensor.h"

namespace ember::nn {

using loss_reduction_t = std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;

// An options class whose only constructor argument is its reduction, as LibTorch's
// TORCH_OPTIONS_CTOR_VARIANT_ARG3: one constructor per tag, since a tag does not convert to the
// options class through the variant.
#define EMBER_REDUCTION_CONSTRUCTORS(Options)                                 \
  Options() {}                                                                \
  /* implicit */ Options(enumtype::kNone) : reduction_(kNone) {} /* NOLINT */ \
  /* implicit */ Options(enumtype::kMean) : reduction_(kMean) {} /* NOLINT */ \
  /* implicit */ Options(enumtype::kSum) : reduction_(kSum) {}   /* NOLINT */

struct MSELossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(MSELossOptions)
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct NLLLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(Tensor, weight) = {};  // per-class weights [C]
  EMBER_ARG(int64_t, ignore_index) = -100;
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct CrossEntropyLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(Tensor, weight) = {};  // per-class weights [C]
  EMBER_ARG(int64_t, ignore_index) = -100;
  EMBER_ARG(reduction_t, reduction) = kMean;
  EMBER_ARG(double, label_smoothing) = 0.0;
};

struct BCEWithLogitsLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(Tensor, weight) = {};  // broadcast to the input
  EMBER_ARG(reduction_t, reduction) = kMean;
  EMBER_ARG(Tensor, pos_weight) = {};  // per-class weight of positive examples
};

#undef EMBER_REDUCTION_CONSTRUCTORS

namespace functional {
using MSELossFuncOptions = MSELossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
}  // namespace functional

}  // namespace ember::nn
