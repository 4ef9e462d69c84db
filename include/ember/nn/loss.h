// Loss modules: MSELoss, NLLLoss, CrossEntropyLoss, BCEWithLogitsLoss (forward(input, target)).
// Each keeps Module's single-tensor forward visible (`using Module::forward`, which throws naming
// the loss): otherwise the two-argument forward hides it, which clang -Wall reports in user code.
#pragma once

#include <cstdint>
#include <string>

#include "ember/nn/functional.h"
#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API MSELossImpl : public Module {
 public:
  explicit MSELossImpl(Reduction reduction = Reduction::Mean)
      : Module("MSELoss"), reduction(reduction) {}
  using Module::forward;
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
  explicit NLLLossImpl(NLLLossOptions options = {});
  using Module::forward;
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
  explicit CrossEntropyLossImpl(CrossEntropyLossOptions options = {});
  using Module::forward;
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
  explicit BCEWithLogitsLossImpl(BCEWithLogitsLossOptions options = {});
  using Module::forward;
  Tensor forward(const Tensor& input, const Tensor& target);
  BCEWithLogitsLossOptions options;
};
EMBER_MODULE(BCEWithLogitsLoss);

}  // namespace ember::nn
