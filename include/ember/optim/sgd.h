// optim::SGD: stochastic gradient descent with momentum, dampening, Nesterov and weight decay,
// PyTorch's update rule.
#pragma once

#include <vector>

#include "ember/optim/optimizer.h"

namespace ember::optim {

struct SGDOptions {
  double lr = 0.01;
  double momentum = 0.0;
  double dampening = 0.0;
  double weight_decay = 0.0;
  bool nesterov = false;
};

class EMBER_API SGD : public Optimizer {
 public:
  SGD(std::vector<Tensor> params, double lr) : SGD(std::move(params), SGDOptions{.lr = lr}) {}
  SGD(std::vector<Tensor> params, SGDOptions options);
  void step() override;
  const SGDOptions& options() const { return options_; }

 private:
  SGDOptions options_;
};

}  // namespace ember::optim
