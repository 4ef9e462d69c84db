// optim::LRScheduler: one step() for every schedule (Note [Closed-form schedules]), each
// schedule's closed form, and its argument checks. Beyond PyTorch's (LinearLR's factors), they
// turn what would be a division by zero or a negative lr some steps later into an error here.
#include "ember/optim/lr_scheduler.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/check.h"

namespace ember::optim {

LRScheduler::LRScheduler(Optimizer& optimizer)
    : optimizer_(optimizer), base_lr_(optimizer.lr()), last_lr_(optimizer.lr()) {}

LRScheduler::~LRScheduler() = default;

void LRScheduler::step() {
  last_lr_ = lr_at(++last_epoch_);
  optimizer_.set_lr(last_lr_);
}

namespace {

// gamma multiplies the lr, so a negative one would make every other lr negative.
void check_gamma(const char* scheduler, double gamma) {
  EMBER_CHECK_T(ValueError, gamma >= 0.0, "[", scheduler,
                "] gamma must be a non-negative multiplicative factor, got ", gamma);
}

}  // namespace

StepLR::StepLR(Optimizer& optimizer, int64_t step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  EMBER_CHECK_T(ValueError, step_size > 0,
                "[StepLR] step_size must be a positive number of epochs, got ", step_size);
  check_gamma("StepLR", gamma);
  initial_step();
}

double StepLR::lr_at(int64_t epoch) const {
  const int64_t decays = epoch / step_size_;  // whole periods passed: Python's //
  return base_lr() * std::pow(gamma_, static_cast<double>(decays));
}

MultiStepLR::MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
  for (size_t i = 0; i < milestones_.size(); ++i) {
    EMBER_CHECK_T(ValueError, milestones_[i] >= 0,
                  "[MultiStepLR] milestones must be non-negative "
                  "epochs, got ",
                  milestones_[i], " at index ", i);
  }
  check_gamma("MultiStepLR", gamma);
  std::sort(milestones_.begin(), milestones_.end());
  initial_step();
}

double MultiStepLR::lr_at(int64_t epoch) const {
  // PyTorch's bisect_right: a milestone counts from its own epoch on, once per listing.
  const auto passed =
      std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin();
  return base_lr() * std::pow(gamma_, static_cast<double>(passed));
}

ExponentialLR::ExponentialLR(Optimizer& optimizer, double gamma)
    : LRScheduler(optimizer), gamma_(gamma) {
  check_gamma("ExponentialLR", gamma);
  initial_step();
}

double ExponentialLR::lr_at(int64_t epoch) const {
  return base_lr() * std::pow(gamma_, static_cast<double>(epoch));
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : LRScheduler(optimizer), t_max_(T_max), eta_min_(eta_min) {
  EMBER_CHECK_T(ValueError, T_max > 0,
                "[CosineAnnealingLR] T_max must be a positive number of "
                "epochs, got ",
                T_max);
  EMBER_CHECK_T(ValueError, eta_min >= 0.0,
                "[CosineAnnealingLR] eta_min must be a non-negative "
                "learning rate, got ",
                eta_min);
  initial_step();
}

double CosineAnnealingLR::lr_at(int64_t epoch) const {
  constexpr double kPi = 3.14159265358979323846;  // math.pi
  // The operations in PyTorch's order, so the values round alike.
  const double angle = kPi * static_cast<double>(epoch) / static_cast<double>(t_max_);
  return eta_min_ + (base_lr() - eta_min_) * (1 + std::cos(angle)) / 2;
}

LinearLR::LinearLR(Optimizer& optimizer, double start_factor, double end_factor,
                   int64_t total_iters)
    : LRScheduler(optimizer),
      start_factor_(start_factor),
      end_factor_(end_factor),
      total_iters_(total_iters) {
  EMBER_CHECK_T(ValueError, start_factor > 0.0 && start_factor <= 1.0,
                "[LinearLR] start_factor (the starting multiplicative factor) must be in (0, 1], "
                "got ",
                start_factor);
  EMBER_CHECK_T(ValueError, end_factor >= 0.0 && end_factor <= 1.0,
                "[LinearLR] end_factor (the ending multiplicative factor) must be in [0, 1], got ",
                end_factor);
  EMBER_CHECK_T(ValueError, total_iters > 0,
                "[LinearLR] total_iters must be a positive number "
                "of epochs, got ",
                total_iters);
  initial_step();
}

double LinearLR::lr_at(int64_t epoch) const {
  const double done = static_cast<double>(std::min(total_iters_, epoch));
  return base_lr() *
         (start_factor_ + (end_factor_ - start_factor_) * done / static_cast<double>(total_iters_));
}

}  // namespace ember::optim
