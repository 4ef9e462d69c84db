// optim::ReduceLROnPlateauScheduler: PyTorch 2's LibTorch scheduler, with Python's comparison
// in max mode with an absolute threshold (LibTorch 2's multiplies the best metric by the
// threshold there) and -inf as the worst metric in max mode (LibTorch's is the smallest positive
// float, so that negative metrics never improve).
#include "ember/optim/reduce_on_plateau_scheduler.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>

#include "core/check.h"

namespace ember::optim {

ReduceLROnPlateauScheduler::ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode,
                                                       float factor, int patience, double threshold,
                                                       ThresholdMode threshold_mode, int cooldown,
                                                       const std::vector<float>& min_lr, double eps,
                                                       bool verbose)
    : optimizer_(optimizer),
      mode_(mode),
      factor_(factor),
      patience_(patience),
      threshold_(threshold),
      threshold_mode_(threshold_mode),
      cooldown_(cooldown),
      min_lrs_(min_lr.empty() ? std::vector<float>(optimizer.param_groups().size()) : min_lr),
      eps_(eps),
      verbose_(verbose),
      best_(mode == min ? std::numeric_limits<float>::max()
                        : std::numeric_limits<float>::lowest()) {
  EMBER_CHECK(min_lrs_.size() == optimizer.param_groups().size(),
              "Number of learning rates not equal to the number of param groups\n",
              "Number of learning rates given: ", min_lr.size(),
              "\nNumber of param groups: ", optimizer.param_groups().size());
  EMBER_CHECK(factor < 1.0, "Factor should be < 1.0.");
}

void ReduceLROnPlateauScheduler::step(float metric) {
  ++last_epoch_;
  if (is_better(metric)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    ++num_bad_epochs_;
  }
  if (cooldown_counter_ > 0) {  // bad epochs do not count while cooling down
    --cooldown_counter_;
    num_bad_epochs_ = 0;
  }
  if (num_bad_epochs_ > patience_) {
    reduce_lr(last_epoch_);
    cooldown_counter_ = cooldown_;
    num_bad_epochs_ = 0;
  }
}

bool ReduceLROnPlateauScheduler::is_better(float metric) const {
  const double best = best_;
  switch (mode_) {
    case min:
      return threshold_mode_ == rel ? metric < best * (1.0 - threshold_)
                                    : metric < best - threshold_;
    case max:
      return threshold_mode_ == rel ? metric > best * (1.0 + threshold_)
                                    : metric > best + threshold_;
  }
  return false;
}

void ReduceLROnPlateauScheduler::reduce_lr(int epoch) {
  std::vector<OptimizerParamGroup>& groups = optimizer_.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) {
    const double old_lr = groups[i].options().get_lr();
    const double new_lr = std::fmax(old_lr * factor_, min_lrs_[i]);
    if (old_lr - new_lr <= eps_) continue;  // too small a change to make
    groups[i].options().set_lr(new_lr);
    if (verbose_) {
      std::cout << std::setprecision(4) << "Epoch " << epoch << ": reducing learning rate of group "
                << i << " to " << new_lr << std::endl;
    }
  }
}

}  // namespace ember::optim
