// optim::AdamW: the checks of its defaults and its step (optim/adam_update.h).
#include "ember/optim/adamw.h"

#include "ember/autograd.h"
#include "optim/adam_update.h"
#include "optim/closure.h"

namespace ember::optim {

AdamW::AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamWOptions>(defaults)) {
  check_adam_settings(AdamSettings::of(defaults, true));
}

Tensor AdamW::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  adam_step<AdamWOptions, AdamWParamState>(
      param_groups_,
      true, [this](const Tensor& p) -> auto& { return state_of<AdamWParamState>(p); });
  return loss;
}

}  // namespace ember::optim
