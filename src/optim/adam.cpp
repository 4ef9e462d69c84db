// optim::Adam and optim::AdamW: the checks of their defaults and their steps, one update rule
// (optim/adam_update.h) with the weight decay added to the gradient or decoupled.
#include "ember/optim/adam.h"

#include "ember/optim/adamw.h"
#include "optim/adam_update.h"
#include "optim/serialize_fields.h"

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

// PyTorch's names, as in optimizer.state_dict() (Note [Optimizers in PyTorch's layout]); Adam
// and AdamW name theirs alike.
template <class O, class Visit>
void adam_options_fields(O& o, Visit& visit) {
  visit("lr", o.lr());
  visit("betas", o.betas());
  visit("eps", o.eps());
  visit("weight_decay", o.weight_decay());
  visit("amsgrad", o.amsgrad());
}
template <class S, class Visit>
void adam_state_fields(S& s, Visit& visit) {
  visit("step", s.step());
  visit("exp_avg", s.exp_avg());
  visit("exp_avg_sq", s.exp_avg_sq());
  visit("max_exp_avg_sq", s.max_exp_avg_sq());
}
EMBER_OPTIM_SERIALIZE(AdamOptions, adam_options_fields)
EMBER_OPTIM_SERIALIZE(AdamParamState, adam_state_fields)
EMBER_OPTIM_SERIALIZE(AdamWOptions, adam_options_fields)
EMBER_OPTIM_SERIALIZE(AdamWParamState, adam_state_fields)

}  // namespace ember::optim
