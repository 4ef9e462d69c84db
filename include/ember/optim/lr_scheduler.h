// optim::LRScheduler as LibTorch's: step() sets each param group's lr to what the schedule's
// get_lrs() computes. The scheduler keeps a reference to the optimizer, which must outlive it.
#pragma once

#include <vector>

#include "ember/macros.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

class EMBER_API LRScheduler {
 public:
  LRScheduler(Optimizer& optimizer);  // NOLINT(google-explicit-constructor): LibTorch's
  LRScheduler(const LRScheduler&) = delete;
  LRScheduler& operator=(const LRScheduler&) = delete;
  virtual ~LRScheduler() = default;

  // Sets every group's lr to get_lrs(), then counts the step.
  void step();

 protected:
  // One lr per param group, from the current ones (get_current_lrs) or in closed form.
  virtual std::vector<double> get_lrs() = 0;
  std::vector<double> get_current_lrs() const;

  unsigned step_count_ = 0;  // how many times step() ran

 private:
  void set_optimizer_lrs(const std::vector<double>& learning_rates);

  Optimizer& optimizer_;
};

}  // namespace ember::optim
