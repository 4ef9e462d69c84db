// The loss modules: each holds its options (weights as buffers, so they follow to()) and calls
// its F:: form (ember/nn/functional/loss.h over ops/loss*.cpp).
#include "ember/nn/loss.h"

#include <ostream>

namespace ember::nn {

namespace {
// Registers an options' weight, if set, as the buffer "weight", so that it follows to().
template <class Options>
void register_loss_weight(Module& module, Options& options) {
  if (options.weight().defined())
    options.weight(module.register_buffer("weight", options.weight()));
}
}  // namespace

Tensor MSELossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::mse_loss(input, target, options);
}

NLLLossImpl::NLLLossImpl(const NLLLossOptions& options_) : Cloneable("NLLLoss"), options(options_) {
  reset();
}
void NLLLossImpl::reset() { register_loss_weight(*this, options); }
Tensor NLLLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::nll_loss(input, target, options);
}

CrossEntropyLossImpl::CrossEntropyLossImpl(const CrossEntropyLossOptions& options_)
    : Cloneable("CrossEntropyLoss"), options(options_) {
  reset();
}
void CrossEntropyLossImpl::reset() { register_loss_weight(*this, options); }
Tensor CrossEntropyLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::cross_entropy(input, target, options);
}

BCEWithLogitsLossImpl::BCEWithLogitsLossImpl(const BCEWithLogitsLossOptions& options_)
    : Cloneable("BCEWithLogitsLoss"), options(options_) {
  reset();
}
void BCEWithLogitsLossImpl::reset() {
  register_loss_weight(*this, options);
  if (options.pos_weight().defined())
    options.pos_weight(register_buffer("pos_weight", options.pos_weight()));
}
Tensor BCEWithLogitsLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::binary_cross_entropy_with_logits(input, target, options);
}

// The losses of EMBER_LOSS_MODULE (nn/loss.h): the constructor of each, then its reset(),
// pretty_print() (LibTorch's text) and forward().
#define EMBER_LOSS_CONSTRUCTOR(Name)                                                            \
  Name##Impl::Name##Impl(const Name##Options& options_) : Cloneable(#Name), options(options_) { \
    reset();                                                                                    \
  }

EMBER_LOSS_CONSTRUCTOR(L1Loss)
void L1LossImpl::reset() {}
void L1LossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::L1Loss()"; }
Tensor L1LossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::l1_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(SmoothL1Loss)
void SmoothL1LossImpl::reset() {}
void SmoothL1LossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::SmoothL1Loss";
}
Tensor SmoothL1LossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::smooth_l1_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(HuberLoss)
void HuberLossImpl::reset() {}
void HuberLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::HuberLoss"; }
Tensor HuberLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::huber_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(SoftMarginLoss)
void SoftMarginLossImpl::reset() {}
void SoftMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::SoftMarginLoss()";
}
Tensor SoftMarginLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::soft_margin_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(BCELoss)
void BCELossImpl::reset() { register_loss_weight(*this, options); }
void BCELossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::BCELoss()"; }
Tensor BCELossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::binary_cross_entropy(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(KLDivLoss)
void KLDivLossImpl::reset() {}
void KLDivLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::KLDivLoss()"; }
Tensor KLDivLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::kl_div(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(PoissonNLLLoss)
void PoissonNLLLossImpl::reset() {}
void PoissonNLLLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PoissonNLLLoss()";
}
Tensor PoissonNLLLossImpl::forward(const Tensor& log_input, const Tensor& targets) {
  return functional::poisson_nll_loss(log_input, targets, options);
}

EMBER_LOSS_CONSTRUCTOR(GaussianNLLLoss)
void GaussianNLLLossImpl::reset() {}
void GaussianNLLLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::GaussianNLLLoss()";
}
Tensor GaussianNLLLossImpl::forward(const Tensor& input, const Tensor& target, const Tensor& var) {
  return functional::gaussian_nll_loss(input, target, var, options);
}

EMBER_LOSS_CONSTRUCTOR(MarginRankingLoss)
void MarginRankingLossImpl::reset() {}
void MarginRankingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MarginRankingLoss()";
}
Tensor MarginRankingLossImpl::forward(const Tensor& input1, const Tensor& input2,
                                      const Tensor& targets) {
  return functional::margin_ranking_loss(input1, input2, targets, options);
}

EMBER_LOSS_CONSTRUCTOR(HingeEmbeddingLoss)
void HingeEmbeddingLossImpl::reset() {}
void HingeEmbeddingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::HingeEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor HingeEmbeddingLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::hinge_embedding_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(CosineEmbeddingLoss)
void CosineEmbeddingLossImpl::reset() {}
void CosineEmbeddingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CosineEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor CosineEmbeddingLossImpl::forward(const Tensor& input1, const Tensor& input2,
                                        const Tensor& target) {
  return functional::cosine_embedding_loss(input1, input2, target, options);
}

EMBER_LOSS_CONSTRUCTOR(TripletMarginLoss)
void TripletMarginLossImpl::reset() {}
void TripletMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TripletMarginLoss(margin=" << options.margin() << ", p=" << options.p()
         << ", eps=" << std::defaultfloat << options.eps() << std::boolalpha
         << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginLossImpl::forward(const Tensor& anchor, const Tensor& positive,
                                      const Tensor& negative) {
  return functional::triplet_margin_loss(anchor, positive, negative, options);
}

EMBER_LOSS_CONSTRUCTOR(TripletMarginWithDistanceLoss)
void TripletMarginWithDistanceLossImpl::reset() {}
void TripletMarginWithDistanceLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TripletMarginWithDistanceLoss(margin=" << options.margin() << std::boolalpha
         << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginWithDistanceLossImpl::forward(const Tensor& anchor, const Tensor& positive,
                                                  const Tensor& negative) {
  return functional::triplet_margin_with_distance_loss(anchor, positive, negative, options);
}

EMBER_LOSS_CONSTRUCTOR(MultiMarginLoss)
void MultiMarginLossImpl::reset() { register_loss_weight(*this, options); }
void MultiMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MultiMarginLoss(p=" << options.p() << ", margin=" << options.margin()
         << ", weight=" << options.weight()
         << ", reduction=" << enumtype::get_enum_name(options.reduction()) << ")";
}
Tensor MultiMarginLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::multi_margin_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(MultiLabelMarginLoss)
void MultiLabelMarginLossImpl::reset() {}
void MultiLabelMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MultiLabelMarginLoss()";
}
Tensor MultiLabelMarginLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::multilabel_margin_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(MultiLabelSoftMarginLoss)
void MultiLabelSoftMarginLossImpl::reset() { register_loss_weight(*this, options); }
void MultiLabelSoftMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MultiLabelSoftMarginLoss()";
}
Tensor MultiLabelSoftMarginLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::multilabel_soft_margin_loss(input, target, options);
}

EMBER_LOSS_CONSTRUCTOR(CTCLoss)
void CTCLossImpl::reset() {}
void CTCLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::CTCLoss()"; }
Tensor CTCLossImpl::forward(const Tensor& log_probs, const Tensor& targets,
                            const Tensor& input_lengths, const Tensor& target_lengths) {
  return functional::ctc_loss(log_probs, targets, input_lengths, target_lengths, options);
}

#undef EMBER_LOSS_CONSTRUCTOR

}  // namespace ember::nn
