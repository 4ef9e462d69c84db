// Loss modules: MSELoss, NLLLoss, CrossEntropyLoss, BCEWithLogitsLoss, each built from its
// LibTorch options (nn/options/loss.h) and calling its F:: form in forward(input, target).
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

}  // namespace ember::nn
