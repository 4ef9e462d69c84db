// optim::ReduceLROnPlateauScheduler as PyTorch 2's LibTorch: multiplies each group's lr by factor
// once a metric passed to step(metric) has not improved for more than `patience` steps.
#pragma once

#include <vector>

#include "ember/macros.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

class EMBER_API ReduceLROnPlateauScheduler {
 public:
  enum SchedulerMode { min, max };  // whether a lower (min) or a higher metric is better
  enum ThresholdMode { rel, abs };  // whether threshold is relative to the best metric or absolute

  // min_lr: a floor per group (none: 0); a change of an lr smaller than eps is not made.
  ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode = min, float factor = 0.1,
                             int patience = 10, double threshold = 1e-4,
                             ThresholdMode threshold_mode = rel, int cooldown = 0,
                             const std::vector<float>& min_lr = std::vector<float>(),
                             double eps = 1e-8, bool verbose = false);
  virtual ~ReduceLROnPlateauScheduler() = default;

  void step(float metric);

 private:
  bool is_better(float metric) const;
  void reduce_lr(int epoch);

  Optimizer& optimizer_;
  SchedulerMode mode_;
  float factor_;
  int patience_;
  double threshold_;
  ThresholdMode threshold_mode_;
  int cooldown_;
  std::vector<float> min_lrs_;
  double eps_;
  bool verbose_;
  float best_;  // the best metric so far: the worst possible one at first
  int cooldown_counter_ = 0;
  int num_bad_epochs_ = 0;
  int last_epoch_ = 0;
};

}  // namespace ember::optim
