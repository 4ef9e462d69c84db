// The losses' F:: forms with LibTorch's options: F::cross_entropy(logits, target,
// F::CrossEntropyFuncOptions().label_smoothing(0.1)), F::mse_loss(a, b, torch::kSum).
#pragma once

#include "ember/enum.h"
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

}  // namespace ember::nn::functional
