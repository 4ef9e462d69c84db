// The loss modules: each holds its options (weights as buffers) and calls its functional form
// (ops/loss.cpp).
#include <utility>

#include "ember/nn/loss.h"

namespace ember::nn {

Tensor MSELossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::mse_loss(input, target, reduction);
}

NLLLossImpl::NLLLossImpl(NLLLossOptions o) : Module("NLLLoss"), options(std::move(o)) {
  if (options.weight.defined()) options.weight = register_buffer("weight", options.weight);
}
Tensor NLLLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::nll_loss(input, target, options.weight, options.ignore_index,
                              options.reduction);
}

CrossEntropyLossImpl::CrossEntropyLossImpl(CrossEntropyLossOptions o)
    : Module("CrossEntropyLoss"), options(std::move(o)) {
  if (options.weight.defined()) options.weight = register_buffer("weight", options.weight);
}
Tensor CrossEntropyLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::cross_entropy(input, target, options.weight, options.ignore_index,
                                   options.reduction, options.label_smoothing);
}

BCEWithLogitsLossImpl::BCEWithLogitsLossImpl(BCEWithLogitsLossOptions o)
    : Module("BCEWithLogitsLoss"), options(std::move(o)) {
  if (options.weight.defined()) options.weight = register_buffer("weight", options.weight);
  if (options.pos_weight.defined())
    options.pos_weight = register_buffer("pos_weight", options.pos_weight);
}
Tensor BCEWithLogitsLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::binary_cross_entropy_with_logits(input, target, options.weight,
                                                      options.reduction, options.pos_weight);
}

}  // namespace ember::nn
