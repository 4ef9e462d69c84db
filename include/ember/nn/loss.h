// Loss modules, each built from its LibTorch options (nn/options/loss.h) and calling its F::
// form in forward(input, target) (forward(input1, input2, target) for the ranking and embedding
// losses, forward(anchor, positive, negative) for the triplet ones).
#pragma once

#include <ostream>

#include "ember/nn/functional/loss.h"
#include "ember/nn/module.h"
#include "ember/nn/options/loss.h"

namespace ember::nn {

class EMBER_API MSELossImpl : public Cloneable<MSELossImpl> {
 public:
  explicit MSELossImpl(const MSELossOptions& options_ = {})
      : Cloneable("MSELoss"), options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::MSELoss()"; }
  Tensor forward(const Tensor& input, const Tensor& target);
  MSELossOptions options;
};
EMBER_MODULE(MSELoss);

// The class weights are a buffer, so they follow the module's to().
class EMBER_API NLLLossImpl : public Cloneable<NLLLossImpl> {
 public:
  explicit NLLLossImpl(const NLLLossOptions& options_ = {});
  void reset() override;  // registers the weights as buffers
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::NLLLoss()"; }
  Tensor forward(const Tensor& input, const Tensor& target);
  NLLLossOptions options;
};
EMBER_MODULE(NLLLoss);

class EMBER_API CrossEntropyLossImpl : public Cloneable<CrossEntropyLossImpl> {
 public:
  explicit CrossEntropyLossImpl(const CrossEntropyLossOptions& options_ = {});
  void reset() override;  // registers the weights as buffers
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::CrossEntropyLoss()";
  }
  Tensor forward(const Tensor& input, const Tensor& target);
  CrossEntropyLossOptions options;
};
EMBER_MODULE(CrossEntropyLoss);

class EMBER_API BCEWithLogitsLossImpl : public Cloneable<BCEWithLogitsLossImpl> {
 public:
  explicit BCEWithLogitsLossImpl(const BCEWithLogitsLossOptions& options_ = {});
  void reset() override;  // registers the weights as buffers
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::BCEWithLogitsLoss()";
  }
  Tensor forward(const Tensor& input, const Tensor& target);
  BCEWithLogitsLossOptions options;
};
EMBER_MODULE(BCEWithLogitsLoss);

// A loss module Name##Impl over Name##Options whose forward takes the arguments given; its
// constructor calls reset(), which registers its weights (if any) as buffers so that they follow
// to(). The definitions are in nn/loss.cpp.
#define EMBER_LOSS_MODULE(Name, ...)                          \
  class EMBER_API Name##Impl : public Cloneable<Name##Impl> { \
   public:                                                    \
    explicit Name##Impl(const Name##Options& options_ = {});  \
    void reset() override;                                    \
    void pretty_print(std::ostream& stream) const override;   \
    Tensor forward(__VA_ARGS__);                              \
    Name##Options options;                                    \
  };                                                          \
  EMBER_MODULE(Name)

EMBER_LOSS_MODULE(L1Loss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(SmoothL1Loss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(HuberLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(SoftMarginLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(BCELoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(KLDivLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(PoissonNLLLoss, const Tensor& log_input, const Tensor& targets);
// Not in LibTorch: PyTorch's Python GaussianNLLLoss.
EMBER_LOSS_MODULE(GaussianNLLLoss, const Tensor& input, const Tensor& target, const Tensor& var);
EMBER_LOSS_MODULE(MarginRankingLoss, const Tensor& input1, const Tensor& input2,
                  const Tensor& targets);
EMBER_LOSS_MODULE(HingeEmbeddingLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(CosineEmbeddingLoss, const Tensor& input1, const Tensor& input2,
                  const Tensor& target);
EMBER_LOSS_MODULE(TripletMarginLoss, const Tensor& anchor, const Tensor& positive,
                  const Tensor& negative);
EMBER_LOSS_MODULE(TripletMarginWithDistanceLoss, const Tensor& anchor, const Tensor& positive,
                  const Tensor& negative);
EMBER_LOSS_MODULE(MultiMarginLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(MultiLabelMarginLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(MultiLabelSoftMarginLoss, const Tensor& input, const Tensor& target);
EMBER_LOSS_MODULE(CTCLoss, const Tensor& log_probs, const Tensor& targets,
                  const Tensor& input_lengths, const Tensor& target_lengths);

#undef EMBER_LOSS_MODULE

}  // namespace ember::nn
