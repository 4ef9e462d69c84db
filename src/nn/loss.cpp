// The loss modules: each holds its options (weights as buffers, so they follow to()) and calls
// its F:: form (ember/nn/functional/loss.h over ops/loss.cpp).
#include "ember/nn/loss.h"

namespace ember::nn {

Tensor MSELossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::mse_loss(input, target, options);
}

NLLLossImpl::NLLLossImpl(const NLLLossOptions& options_) : Cloneable("NLLLoss"), options(options_) {
  reset();
}
void NLLLossImpl::reset() {
  if (options.weight().defined()) options.weight(register_buffer("weight", options.weight()));
}
Tensor NLLLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::nll_loss(input, target, options);
}

CrossEntropyLossImpl::CrossEntropyLossImpl(const CrossEntropyLossOptions& options_)
    : Cloneable("CrossEntropyLoss"), options(options_) {
  reset();
}
void CrossEntropyLossImpl::reset() {
  if (options.weight().defined()) options.weight(register_buffer("weight", options.weight()));
}
Tensor CrossEntropyLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::cross_entropy(input, target, options);
}

BCEWithLogitsLossImpl::BCEWithLogitsLossImpl(const BCEWithLogitsLossOptions& options_)
    : Cloneable("BCEWithLogitsLoss"), options(options_) {
  reset();
}
void BCEWithLogitsLossImpl::reset() {
  if (options.weight().defined()) options.weight(register_buffer("weight", options.weight()));
  if (options.pos_weight().defined())
    options.pos_weight(register_buffer("pos_weight", options.pos_weight()));
}
Tensor BCEWithLogitsLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::binary_cross_entropy_with_logits(input, target, options);
}

}  // namespace ember::nn
