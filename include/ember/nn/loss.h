// Loss modules: MSELoss, NLLLoss, CrossEntropyLoss, BCEWithLogitsLoss (forward(input, target)).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "ember/nn/functional.h"
#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API MSELossImpl : public Module {
 public:
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::MSELoss()"; }
  explicit MSELossImpl(Reduction reduction = Reduction::Mean)
      : Module("MSELoss"), reduction(reduction) {}
  Tensor forward(const Tensor& input, const Tensor& target);
  Reduction reduction;
};
EMBER_MODULE(MSELoss);

struct NLLLossOptions {
  Tensor weight = Tensor();  // per-class weights [C]
  int64_t ignore_index = -100;
  Reduction reduction = Reduction::Mean;
};

class EMBER_API NLLLossImpl : public Module {
 public:
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::NLLLoss()"; }
  explicit NLLLossImpl(NLLLossOptions options = {});
  Tensor forward(const Tensor& input, const Tensor& target);
  NLLLossOptions options;
};
EMBER_MODULE(NLLLoss);

struct CrossEntropyLossOptions {
  Tensor weight = Tensor();  // per-class weights [C]
  int64_t ignore_index = -100;
  Reduction reduction = Reduction::Mean;
  double label_smoothing = 0.0;
};

class EMBER_API CrossEntropyLossImpl : public Module {
 public:
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::CrossEntropyLoss()";
  }
  explicit CrossEntropyLossImpl(CrossEntropyLossOptions options = {});
  Tensor forward(const Tensor& input, const Tensor& target);
  CrossEntropyLossOptions options;
};
EMBER_MODULE(CrossEntropyLoss);

struct BCEWithLogitsLossOptions {
  Tensor weight = Tensor();  // broadcast to the input
  Reduction reduction = Reduction::Mean;
  Tensor pos_weight = Tensor();  // per-class weight of positive examples
};

class EMBER_API BCEWithLogitsLossImpl : public Module {
 public:
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::BCEWithLogitsLoss()";
  }
  explicit BCEWithLogitsLossImpl(BCEWithLogitsLossOptions options = {});
  Tensor forward(const Tensor& input, const Tensor& target);
  BCEWithLogitsLossOptions options;
};
EMBER_MODULE(BCEWithLogitsLoss);

}  // namespace ember::nn
