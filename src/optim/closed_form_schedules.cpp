// ember's closed-form schedules (Note [Closed-form schedules]): each schedule's closed form and
// its argument checks. Beyond PyTorch's (LinearLR's factors), they
// turn what would be a division by zero or a negative lr some steps later into an error here.
#include "ember/optim/closed_form_schedules.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/check.h"

namespace ember::optim {

ClosedFormLRScheduler::ClosedFormLRScheduler(Optimizer& optimizer)
    : LRScheduler(optimizer), base_lrs_(get_current_lrs()) {}

std::vector<double> ClosedFormLRScheduler::get_lrs() {
  std::vector<double> lrs;
  for (double base_lr : base_lrs_) lrs.push_back(lr_at(static_cast<int64_t>(step_count_), base_lr));
  return lrs;
}

std::vector<double> ClosedFormLRScheduler::get_last_lr() const {
  std::vector<double> lrs;
  for (double base_lr : base_lrs_) lrs.push_back(lr_at(last_epoch(), base_lr));
  return lrs;
}

namespace {

// gamma multiplies the lr, so a negative one would make every other lr negative.
void check_closed_form_gamma(const char* scheduler, double gamma) {
  EMBER_CHECK_T(ValueError, gamma >= 0.0, "[", scheduler,
                "] gamma must be a non-negative multiplicative factor, got ", gamma);
}

}  // namespace

MultiStepLR::MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma)
    : ClosedFormLRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
  for (size_t i = 0; i < milestones_.size(); ++i) {
    EMBER_CHECK_T(ValueError, milestones_[i] >= 0,
                  "[MultiStepLR] milestones must be non-negative "
                  "epochs, got ",
                  milestones_[i], " at index ", i);
  }
  check_closed_form_gamma("MultiStepLR", gamma);
  std::sort(milestones_.begin(), milestones_.end());
  initial_step();
}

double MultiStepLR::lr_at(int64_t epoch, double base_lr) const {
  // PyTorch's bisect_right: a milestone counts from its own epoch on, once per listing.
  const auto passed =
      std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin();
  return base_lr * std::pow(gamma_, static_cast<double>(passed));
}

ExponentialLR::ExponentialLR(Optimizer& optimizer, double gamma)
    : ClosedFormLRScheduler(optimizer), gamma_(gamma) {
  check_closed_form_gamma("ExponentialLR", gamma);
  initial_step();
}

double ExponentialLR::lr_at(int64_t epoch, double base_lr) const {
  return base_lr * std::pow(gamma_, static_cast<double>(epoch));
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : ClosedFormLRScheduler(optimizer), t_max_(T_max), eta_min_(eta_min) {
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

double CosineAnnealingLR::lr_at(int64_t epoch, double base_lr) const {
  constexpr double kPi = 3.14159265358979323846;  // math.pi
  // The operations in PyTorch's order, so the values round alike.
  const double angle = kPi * static_cast<double>(epoch) / static_cast<double>(t_max_);
  return eta_min_ + (base_lr - eta_min_) * (1 + std::cos(angle)) / 2;
}

LinearLR::LinearLR(Optimizer& optimizer, double start_factor, double end_factor,
                   int64_t total_iters)
    : ClosedFormLRScheduler(optimizer),
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

double LinearLR::lr_at(int64_t epoch, double base_lr) const {
  const double done = static_cast<double>(std::min(total_iters_, epoch));
  return base_lr *
         (start_factor_ + (end_factor_ - start_factor_) * done / static_cast<double>(total_iters_));
}

}  // namespace ember::optim
