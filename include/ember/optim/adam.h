// optim::Adam and optim::AdamW (decoupled weight decay), PyTorch's update rules.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/optim/optimizer.h"

namespace ember::optim {

struct AdamOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.0;  // Adam: added to the gradient; AdamW: decoupled (default 0.01)
};

class EMBER_API Adam : public Optimizer {
 public:
  Adam(std::vector<Tensor> params, double lr) : Adam(std::move(params), AdamOptions{.lr = lr}) {}
  Adam(std::vector<Tensor> params, AdamOptions options);
  void step() override;
  const AdamOptions& options() const { return options_; }
  // How many updates parameter i has had: its own count, as PyTorch's state['step'], since a
  // parameter without a gradient (frozen, or unused this step) is not updated.
  int64_t steps(size_t i) const { return steps_.at(i); }

 protected:
  Adam(std::vector<Tensor> params, AdamOptions options, bool decoupled, const char* name);

 private:
  AdamOptions options_;
  bool decoupled_;
  std::vector<int64_t> steps_;  // per parameter: its bias corrections use its own count
};

class EMBER_API AdamW : public Adam {
 public:
  AdamW(std::vector<Tensor> params, double lr)
      : AdamW(std::move(params), AdamOptions{.lr = lr, .weight_decay = 0.01}) {}
  AdamW(std::vector<Tensor> params, AdamOptions options);
};

}  // namespace ember::optim
