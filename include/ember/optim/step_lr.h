// optim::StepLR as LibTorch's: multiplies every group's lr by gamma on each step() whose count of
// earlier steps is a positive multiple of step_size. That is one step later than Python's StepLR,
// whose constructor already steps once: LibTorch's constructor does not.
#pragma once

#include <vector>

#include "ember/optim/lr_scheduler.h"

namespace ember::optim {

class EMBER_API StepLR : public LRScheduler {
 public:
  StepLR(Optimizer& optimizer, unsigned step_size, double gamma = 0.1);

 private:
  std::vector<double> get_lrs() override;

  const unsigned step_size_;
  const double gamma_;
};

}  // namespace ember::optim
