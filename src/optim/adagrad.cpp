// optim::Adagrad: LibTorch's update, op by op (no fused kernel).
#include "ember/optim/adagrad.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "optim/closure.h"
#include "optim/serialize_fields.h"

namespace ember::optim {

Adagrad::Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdagradOptions>(defaults)) {
  EMBER_CHECK_T(ValueError, defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  EMBER_CHECK_T(ValueError, defaults.lr_decay() >= 0,
                "Invalid lr_decay value: ", defaults.lr_decay());
  EMBER_CHECK_T(ValueError, defaults.weight_decay() >= 0,
                "Invalid weight_decay value: ", defaults.weight_decay());
  EMBER_CHECK_T(ValueError, defaults.initial_accumulator_value() >= 0,
                "Invalid initial_accumulator_value value: ", defaults.initial_accumulator_value());
  EMBER_CHECK_T(ValueError, defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
  for (const OptimizerParamGroup& group : param_groups_) {
    const auto& o = static_cast<const AdagradOptions&>(group.options());
    for (const Tensor& p : group.params()) state_with_sum(p, o);
  }
}

AdagradParamState& Adagrad::state_with_sum(const Tensor& p, const AdagradOptions& options) {
  AdagradParamState& state = state_of<AdagradParamState>(p);
  if (!state.sum().defined()) {
    NoGradGuard no_grad;
    state.sum(full_like(p, options.initial_accumulator_value()));
  }
  return state;
}

Tensor Adagrad::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (OptimizerParamGroup& group : param_groups_) {
    const auto& o = static_cast<const AdagradOptions&>(group.options());
    for (Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      AdagradParamState& state = state_with_sum(p, o);
      state.step(state.step() + 1);
      Tensor grad = p.grad();
      if (o.weight_decay() != 0) grad = grad.add(p, o.weight_decay());
      const double clr = o.lr() / (1 + static_cast<double>(state.step() - 1) * o.lr_decay());
      state.sum().add_(grad * grad);
      p.add_(grad / state.sum().sqrt().add_(o.eps()), -clr);
    }
  }
  return loss;
}

// PyTorch's names, as in optimizer.state_dict() (Note [Optimizers in PyTorch's layout]).
template <class O, class Visit>
void adagrad_options_fields(O& o, Visit& visit) {
  visit("lr", o.lr());
  visit("lr_decay", o.lr_decay());
  visit("weight_decay", o.weight_decay());
  visit("initial_accumulator_value", o.initial_accumulator_value());
  visit("eps", o.eps());
}
template <class S, class Visit>
void adagrad_state_fields(S& s, Visit& visit) {
  visit("step", s.step());
  visit("sum", s.sum());
}
EMBER_OPTIM_SERIALIZE(AdagradOptions, adagrad_options_fields)
EMBER_OPTIM_SERIALIZE(AdagradParamState, adagrad_state_fields)

}  // namespace ember::optim
