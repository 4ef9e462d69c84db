// optim::Adam: the checks of its defaults and its step (optim/adam_update.h).
#include "ember/optim/adam.h"

#include "ember/autograd.h"
#include "optim/adam_update.h"
#include "optim/closure.h"

namespace ember::optim {

Adam::Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamOptions>(defaults)) {
  check_adam_settings(AdamSettings::of(defaults, false));
}

Tensor Adam::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  adam_step<AdamOptions, AdamParamState>(
      param_groups_,
      false, [this](const Tensor& p) -> auto& { return state_of<AdamParamState>(p); });
  return loss;
}

}  // namespace ember::optim
