// Options of the losses and of their F:: forms, as LibTorch's torch/nn/options/loss.h: the
// reduction is the variant kNone | kMean | kSum (KLDivLoss adds kBatchMean), so
// MSELoss(torch::kSum) and F::l1_loss(a, b, torch::kSum) read as there. GaussianNLLLossOptions
// is PyTorch's Python GaussianNLLLoss, which LibTorch lacks.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

struct L1LossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(L1LossOptions)
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct KLDivLossOptions {
  typedef std::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean>
      reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(KLDivLossOptions)
  /* implicit */ KLDivLossOptions(enumtype::kBatchMean) : reduction_(kBatchMean) {}  // NOLINT
  EMBER_ARG(reduction_t, reduction) = kMean;
  EMBER_ARG(bool, log_target) = false;  // the target holds log-probabilities
};

struct BCELossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(Tensor, weight) = {};  // broadcast to the input
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct HingeEmbeddingLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(double, margin) = 1.0;
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct MultiMarginLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(int64_t, p) = 1;  // 1 or 2
  EMBER_ARG(double, margin) = 1.0;
  EMBER_ARG(Tensor, weight) = Tensor();  // per-class weights [C]
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct CosineEmbeddingLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(double, margin) = 0.0;
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct MultiLabelMarginLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(MultiLabelMarginLossOptions)
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct SoftMarginLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(SoftMarginLossOptions)
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct MultiLabelSoftMarginLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(Tensor, weight) = Tensor();  // per-class weights [C]
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct TripletMarginLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(double, margin) = 1.0;
  EMBER_ARG(double, p) = 2.0;
  EMBER_ARG(double, eps) = 1e-6;
  EMBER_ARG(bool, swap) = false;
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct TripletMarginWithDistanceLossOptions {
  typedef loss_reduction_t reduction_t;
  typedef std::function<Tensor(const Tensor&, const Tensor&)> distance_function_t;
  // Unset: pairwise_distance.
  EMBER_ARG(std::optional<distance_function_t>, distance_function) = std::nullopt;
  EMBER_ARG(double, margin) = 1.0;
  EMBER_ARG(bool, swap) = false;
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct SmoothL1LossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(SmoothL1LossOptions)
  EMBER_ARG(reduction_t, reduction) = kMean;
  EMBER_ARG(double, beta) = 1.0;
};

struct HuberLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_REDUCTION_CONSTRUCTORS(HuberLossOptions)
  EMBER_ARG(reduction_t, reduction) = kMean;
  EMBER_ARG(double, delta) = 1.0;
};

struct PoissonNLLLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(bool, log_input) = true;  // the input is log(rate)
  EMBER_ARG(bool, full) = false;      // add Stirling's approximation of log(target!)
  EMBER_ARG(double, eps) = 1e-8;      // keeps log(input + eps) finite without log_input
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct GaussianNLLLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(bool, full) = false;  // add the constant 0.5 log(2 pi)
  EMBER_ARG(double, eps) = 1e-6;  // the variance is clamped to at least eps
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct MarginRankingLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(double, margin) = 0;
  EMBER_ARG(reduction_t, reduction) = kMean;
};

struct CTCLossOptions {
  typedef loss_reduction_t reduction_t;
  EMBER_ARG(int64_t, blank) = 0;
  EMBER_ARG(reduction_t, reduction) = kMean;
  EMBER_ARG(bool, zero_infinity) = false;  // zero infinite losses (no alignment) and their gradient
};

#undef EMBER_REDUCTION_CONSTRUCTORS

namespace functional {
using MSELossFuncOptions = MSELossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using L1LossFuncOptions = L1LossOptions;
using KLDivFuncOptions = KLDivLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using HingeEmbeddingLossFuncOptions = HingeEmbeddingLossOptions;
using MultiMarginLossFuncOptions = MultiMarginLossOptions;
using CosineEmbeddingLossFuncOptions = CosineEmbeddingLossOptions;
using MultilabelMarginLossFuncOptions = MultiLabelMarginLossOptions;
using SoftMarginLossFuncOptions = SoftMarginLossOptions;
using MultilabelSoftMarginLossFuncOptions = MultiLabelSoftMarginLossOptions;
using TripletMarginLossFuncOptions = TripletMarginLossOptions;
using TripletMarginWithDistanceLossFuncOptions = TripletMarginWithDistanceLossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using PoissonNLLLossFuncOptions = PoissonNLLLossOptions;
using GaussianNLLLossFuncOptions = GaussianNLLLossOptions;
using MarginRankingLossFuncOptions = MarginRankingLossOptions;
using CTCLossFuncOptions = CTCLossOptions;
}  // namespace functional

}  // namespace ember::nn
