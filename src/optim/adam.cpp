// optim::Adam and optim::AdamW: the checks of their defaults and their steps, one update rule
// (optim/adam_update.h) with the weight decay added to the gradient or decoupled.
#include "ember/optim/adam.h"

#include "ember/optim/adamw.h"
#include "optim/adam_update.h"

namespace ember::optim {

Adam::Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamOptions>(defaults)) {
  check_adam_settings(AdamSettings::of(defaults, false));
}

Tensor Adam::step(LossClosure closure) {
  return adam_step<AdamOptions>(
      closure, param_groups_,
      false, [this](const Tensor& p) -> auto& { return state_of<AdamParamState>(p); });
}

AdamW::AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamWOptions>(defaults)) {
  check_adam_settings(AdamSettings::of(defaults, true));
}

Tensor AdamW::step(LossClosure closure) {
  return adam_step<AdamWOptions>(
      closure, param_groups_,
      true, [this](const Tensor& p) -> auto& { return state_of<AdamWParamState>(p); });
}

}  // namespace ember::optim
