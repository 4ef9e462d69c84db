// optim::Optimizer: the parameters an optimizer updates, zero_grad, the learning rate, and
// per-parameter state that follows its parameter's device.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::optim {

class EMBER_API Optimizer {
 public:
  Optimizer(std::vector<Tensor> params, double lr, const char* name);
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;
  virtual ~Optimizer();

  // One update of every parameter that has a gradient, inside a NoGradGuard.
  virtual void step() = 0;
  // Drops the gradients (set_to_none, PyTorch 2's default) or zeroes them in place.
  void zero_grad(bool set_to_none = true);

  double lr() const { return lr_; }
  void set_lr(double lr);  // for schedules
  const std::vector<Tensor>& parameters() const { return params_; }

 protected:
  // State tensor `slot` of parameter i (a momentum buffer, Adam's moments): zeros shaped like the
  // parameter on first use, moved to the parameter's device and dtype if the module moved since.
  Tensor& state(size_t i, size_t slot);
  bool has_state(size_t i, size_t slot) const {
    return state_[i].size() > slot && state_[i][slot].defined();
  }

  std::vector<Tensor> params_;
  double lr_;
  const char* name_;

 private:
  std::vector<std::deque<Tensor>> state_;  // a deque: growing it keeps references valid
};

}  // namespace ember::optim
