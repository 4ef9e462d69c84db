// optim::LRScheduler and optim::StepLR, LibTorch's: the schedule sets each group's lr.
#include "ember/optim/lr_scheduler.h"

#include "core/check.h"
#include "ember/optim/step_lr.h"

namespace ember::optim {

LRScheduler::LRScheduler(Optimizer& optimizer) : optimizer_(optimizer) {}

void LRScheduler::step() {
  set_optimizer_lrs(get_lrs());
  ++step_count_;
}

std::vector<double> LRScheduler::get_current_lrs() const {
  std::vector<double> lrs;
  for (const OptimizerParamGroup& group : optimizer_.param_groups())
    lrs.push_back(group.options().get_lr());
  return lrs;
}

void LRScheduler::set_optimizer_lrs(const std::vector<double>& learning_rates) {
  std::vector<OptimizerParamGroup>& groups = optimizer_.param_groups();
  EMBER_CHECK(learning_rates.size() == groups.size(),
              "Number of learning rates not equal to the number of param groups\n",
              "Number of learning rates given: ", learning_rates.size(),
              "\nNumber of param groups: ", groups.size());
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(learning_rates[i]);
}

StepLR::StepLR(Optimizer& optimizer, unsigned step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  // Beyond LibTorch's checks: it divides by step_size and lets a negative gamma flip the lr's sign.
  EMBER_CHECK_T(ValueError, step_size > 0,
                "[StepLR] step_size must be a positive number of epochs, got ", step_size);
  EMBER_CHECK_T(ValueError, gamma >= 0.0,
                "[StepLR] gamma must be a non-negative multiplicative factor, got ", gamma);
}

std::vector<double> StepLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (step_count_ == 0 || step_count_ % step_size_ != 0) return lrs;
  for (double& lr : lrs) lr *= gamma_;
  return lrs;
}

}  // namespace ember::optim
