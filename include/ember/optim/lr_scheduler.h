// optim::LRScheduler and PyTorch's common schedules (StepLR, MultiStepLR, ExponentialLR,
// CosineAnnealingLR, LinearLR), each one closed-form function of the epoch.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/macros.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

// Note [Closed-form schedules]: a schedule is lr_at(epoch), computed from base_lr() alone
// (PyTorch's _get_closed_form_lr); step() is the one mechanism that applies it. PyTorch's step()
// instead updates the optimizer's current lr recursively, which gives the same values (to
// rounding) unless something else changes the lr between steps: here the schedule overwrites
// such a change. Construction performs PyTorch's initial step: last_epoch() is 0 and the
// optimizer's lr is lr_at(0) (base_lr * start_factor for LinearLR). The scheduler keeps a
// reference to the optimizer, which must outlive it.
class EMBER_API LRScheduler {
 public:
  explicit LRScheduler(Optimizer& optimizer);
  LRScheduler(const LRScheduler&) = delete;
  LRScheduler& operator=(const LRScheduler&) = delete;
  virtual ~LRScheduler();

  // Advances one epoch and sets the optimizer's lr to lr_at(last_epoch()).
  void step();
  double get_last_lr() const { return last_lr_; }
  int64_t last_epoch() const { return last_epoch_; }
  double base_lr() const { return base_lr_; }  // the optimizer's lr when the scheduler was made

  // The schedule: the lr of `epoch` (>= 0).
  virtual double lr_at(int64_t epoch) const = 0;

 protected:
  // Epoch 0. lr_at cannot be called from this base's constructor, so each subclass constructor
  // ends with this, after checking its arguments (as PyTorch's end in the base __init__).
  void initial_step() { step(); }

 private:
  Optimizer& optimizer_;
  double base_lr_;
  int64_t last_epoch_ = -1;
  double last_lr_;
};

// base_lr * gamma^(epoch / step_size): decays by gamma every step_size epochs.
class EMBER_API StepLR final : public LRScheduler {
 public:
  StepLR(Optimizer& optimizer, int64_t step_size, double gamma = 0.1);
  double lr_at(int64_t epoch) const override;

 private:
  int64_t step_size_;
  double gamma_;
};

// base_lr * gamma^(number of milestones <= epoch): a milestone listed twice decays twice.
class EMBER_API MultiStepLR final : public LRScheduler {
 public:
  MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma = 0.1);
  double lr_at(int64_t epoch) const override;

 private:
  std::vector<int64_t> milestones_;  // sorted
  double gamma_;
};

// base_lr * gamma^epoch.
class EMBER_API ExponentialLR final : public LRScheduler {
 public:
  ExponentialLR(Optimizer& optimizer, double gamma);
  double lr_at(int64_t epoch) const override;

 private:
  double gamma_;
};

// eta_min + (base_lr - eta_min) (1 + cos(pi epoch / T_max)) / 2: down to eta_min at T_max, then
// back up (period 2 T_max; SGDR without restarts, as PyTorch).
class EMBER_API CosineAnnealingLR final : public LRScheduler {
 public:
  CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0.0);
  double lr_at(int64_t epoch) const override;

 private:
  int64_t t_max_;
  double eta_min_;
};

// base_lr times a factor going linearly from start_factor to end_factor over total_iters epochs,
// then staying at end_factor (a warm-up with the defaults).
class EMBER_API LinearLR final : public LRScheduler {
 public:
  explicit LinearLR(Optimizer& optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0,
                    int64_t total_iters = 5);
  double lr_at(int64_t epoch) const override;

 private:
  double start_factor_;
  double end_factor_;
  int64_t total_iters_;
};

}  // namespace ember::optim
