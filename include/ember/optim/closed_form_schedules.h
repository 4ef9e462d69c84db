// ember's closed-form schedules on LibTorch's LRScheduler: PyTorch's MultiStepLR, ExponentialLR,
// CosineAnnealingLR and LinearLR (which LibTorch lacks), each one function of the epoch.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/macros.h"
#include "ember/optim/lr_scheduler.h"

namespace ember::optim {

// Note [Closed-form schedules]: a schedule is lr_at(epoch, base_lr), each group's lr computed from
// the lr it had when the scheduler was made (PyTorch's _get_closed_form_lr); LRScheduler::step() is
// the one mechanism that applies it. PyTorch's step() instead updates the current lr recursively,
// which gives the same values (to rounding) unless something else changes the lr between steps:
// here the schedule overwrites such a change. Construction performs Python's initial step:
// last_epoch() is 0 and each group's lr is lr_at(0, base_lr) (base_lr * start_factor for
// LinearLR). LibTorch's StepLR is not one of these: it decays recursively and its constructor
// does not step (optim/step_lr.h).
class EMBER_API ClosedFormLRScheduler : public LRScheduler {
 public:
  explicit ClosedFormLRScheduler(Optimizer& optimizer);

  // The schedule: the lr at `epoch` (>= 0) of a group whose lr was base_lr.
  virtual double lr_at(int64_t epoch, double base_lr) const = 0;

  int64_t last_epoch() const { return static_cast<int64_t>(step_count_) - 1; }
  const std::vector<double>& base_lrs() const { return base_lrs_; }
  // The lrs the last step set, one per group (Python's get_last_lr()).
  std::vector<double> get_last_lr() const;

 protected:
  // Epoch 0. lr_at cannot be called from this base's constructor, so each subclass constructor
  // ends with this, after checking its arguments (as PyTorch's end in the base __init__).
  void initial_step() { step(); }

 private:
  std::vector<double> get_lrs() override;

  std::vector<double> base_lrs_;
};

// base_lr * gamma^(number of milestones <= epoch): a milestone listed twice decays twice.
class EMBER_API MultiStepLR final : public ClosedFormLRScheduler {
 public:
  MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma = 0.1);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  std::vector<int64_t> milestones_;  // sorted
  double gamma_;
};

// base_lr * gamma^epoch.
class EMBER_API ExponentialLR final : public ClosedFormLRScheduler {
 public:
  ExponentialLR(Optimizer& optimizer, double gamma);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  double gamma_;
};

// eta_min + (base_lr - eta_min) (1 + cos(pi epoch / T_max)) / 2: down to eta_min at T_max, then
// back up (period 2 T_max; SGDR without restarts, as PyTorch).
class EMBER_API CosineAnnealingLR final : public ClosedFormLRScheduler {
 public:
  CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0.0);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  int64_t t_max_;
  double eta_min_;
};

// base_lr times a factor going linearly from start_factor to end_factor over total_iters epochs,
// then staying at end_factor (a warm-up with the defaults).
class EMBER_API LinearLR final : public ClosedFormLRScheduler {
 public:
  explicit LinearLR(Optimizer& optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0,
                    int64_t total_iters = 5);
  double lr_at(int64_t epoch, double base_lr) const override;

 private:
  double start_factor_;
  double end_factor_;
  int64_t total_iters_;
};

}  // namespace ember::optim
