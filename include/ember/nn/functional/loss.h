// The losses' F:: forms with LibTorch's options: F::cross_entropy(logits, target,
// F::CrossEntropyFuncOptions().label_smoothing(0.1)), F::mse_loss(a, b, torch::kSum). Those with
// an ATen op call it (ember/nn_ops.h); the rest are defined in
// src/ops/loss_pointwise.cpp and loss_margin.cpp.
#pragma once

#include "ember/enum.h"
#include "ember/macros.h"
#include "ember/nn/options/loss.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor mse_loss(const Tensor& input, const Tensor& target,
                       const MSELossFuncOptions& options = {}) {
  return ember::mse_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor nll_loss(const Tensor& input, const Tensor& target,
                       const NLLLossFuncOptions& options = {}) {
  return ember::nll_loss(input, target, options.weight(),
                         enumtype::reduction_get_enum(options.reduction()), options.ignore_index());
}

inline Tensor cross_entropy(const Tensor& input, const Tensor& target,
                            const CrossEntropyFuncOptions& options = {}) {
  return ember::cross_entropy_loss(input, target, options.weight(),
                                   enumtype::reduction_get_enum(options.reduction()),
                                   options.ignore_index(), options.label_smoothing());
}

inline Tensor binary_cross_entropy_with_logits(
    const Tensor& input, const Tensor& target,
    const BinaryCrossEntropyWithLogitsFuncOptions& options = {}) {
  return ember::binary_cross_entropy_with_logits(input, target, options.weight(),
                                                 options.pos_weight(),
                                                 enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor l1_loss(const Tensor& input, const Tensor& target,
                      const L1LossFuncOptions& options = {}) {
  return ember::l1_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

// Note [smooth_l1_loss's beta]: LibTorch 1.13's F::smooth_l1_loss ignores options.beta() and
// reads only its fourth argument (default 1); PyTorch 2.x reads options.beta(), and so does this
// form. The fourth argument, when given, wins, as in both.
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                             const SmoothL1LossFuncOptions& options, double beta) {
  return ember::smooth_l1_loss(input, target, enumtype::reduction_get_enum(options.reduction()),
                               beta);
}
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                             const SmoothL1LossFuncOptions& options = {}) {
  return smooth_l1_loss(input, target, options, options.beta());
}

inline Tensor huber_loss(const Tensor& input, const Tensor& target,
                         const HuberLossFuncOptions& options = {}) {
  return ember::huber_loss(input, target, enumtype::reduction_get_enum(options.reduction()),
                           options.delta());
}

inline Tensor soft_margin_loss(const Tensor& input, const Tensor& target,
                               const SoftMarginLossFuncOptions& options = {}) {
  return ember::soft_margin_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                                   const BinaryCrossEntropyFuncOptions& options = {}) {
  return ember::binary_cross_entropy(input, target, options.weight(),
                                     enumtype::reduction_get_enum(options.reduction()));
}

// kBatchMean sums and divides by the batch size (input.size(0)); kMean warns, as LibTorch's,
// that it divides by every element instead.
EMBER_API Tensor kl_div(const Tensor& input, const Tensor& target,
                        const KLDivFuncOptions& options = {});

inline Tensor poisson_nll_loss(const Tensor& input, const Tensor& target,
                               const PoissonNLLLossFuncOptions& options = {}) {
  return ember::poisson_nll_loss(input, target, options.log_input(), options.full(), options.eps(),
                                 enumtype::reduction_get_enum(options.reduction()));
}

// 0.5 (log(max(var, eps)) + (input - target)^2 / max(var, eps)), plus 0.5 log(2 pi) if full:
// PyTorch's F.gaussian_nll_loss (LibTorch has none). var has the input's shape, or it lacks
// the last dimension or has size 1 there (one variance for the last dimension's values).
EMBER_API Tensor gaussian_nll_loss(const Tensor& input, const Tensor& target, const Tensor& var,
                                   const GaussianNLLLossFuncOptions& options = {});

// Checks, as LibTorch's F:: form does, that the three have the same number of dimensions.
EMBER_API Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2,
                                     const Tensor& target,
                                     const MarginRankingLossFuncOptions& options = {});

inline Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target,
                                   const HingeEmbeddingLossFuncOptions& options = {}) {
  return ember::hinge_embedding_loss(input, target, options.margin(),
                                     enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2,
                                    const Tensor& target,
                                    const CosineEmbeddingLossFuncOptions& options = {}) {
  return ember::cosine_embedding_loss(input1, input2, target, options.margin(),
                                      enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive,
                                  const Tensor& negative,
                                  const TripletMarginLossFuncOptions& options = {}) {
  return ember::triplet_margin_loss(anchor, positive, negative, options.margin(), options.p(),
                                    options.eps(), options.swap(),
                                    enumtype::reduction_get_enum(options.reduction()));
}

// triplet_margin_loss with any distance (pairwise_distance when none is given).
EMBER_API Tensor triplet_margin_with_distance_loss(
    const Tensor& anchor, const Tensor& positive, const Tensor& negative,
    const TripletMarginWithDistanceLossFuncOptions& options = {});

inline Tensor multi_margin_loss(const Tensor& input, const Tensor& target,
                                const MultiMarginLossFuncOptions& options = {}) {
  return ember::multi_margin_loss(input, target, options.p(), options.margin(), options.weight(),
                                  enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor multilabel_margin_loss(const Tensor& input, const Tensor& target,
                                     const MultilabelMarginLossFuncOptions& options = {}) {
  return ember::multilabel_margin_loss(input, target,
                                       enumtype::reduction_get_enum(options.reduction()));
}

// -(y log sigmoid(x) + (1 - y) log sigmoid(-x)) (times the class weights), averaged over the
// last dimension: one loss per sample.
EMBER_API Tensor
multilabel_soft_margin_loss(const Tensor& input, const Tensor& target,
                            const MultilabelSoftMarginLossFuncOptions& options = {});

// log_probs [T, N, C] (or [T, C]), targets padded [N, S] or concatenated, integer lengths [N].
inline Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                       const Tensor& target_lengths, const CTCLossFuncOptions& options = {}) {
  return ember::ctc_loss(log_probs, targets, input_lengths, target_lengths, options.blank(),
                         enumtype::reduction_get_enum(options.reduction()),
                         options.zero_infinity());
}

}  // namespace ember::nn::functional
