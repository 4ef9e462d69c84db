// optim::RMSprop: LibTorch's update, op by op (no fused kernel).
#include "ember/optim/rmsprop.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "optim/closure.h"
#include "optim/serialize_fields.h"

namespace ember::optim {

RMSprop::RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<RMSpropOptions>(defaults)) {
  EMBER_CHECK_T(ValueError, defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  EMBER_CHECK_T(ValueError, defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
  EMBER_CHECK_T(ValueError, defaults.momentum() >= 0,
                "Invalid momentum value: ", defaults.momentum());
  EMBER_CHECK_T(ValueError, defaults.weight_decay() >= 0,
                "Invalid weight_decay value: ", defaults.weight_decay());
  EMBER_CHECK_T(ValueError, defaults.alpha() >= 0, "Invalid alpha value: ", defaults.alpha());
}

Tensor RMSprop::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (OptimizerParamGroup& group : param_groups_) {
    const auto& o = static_cast<const RMSpropOptions&>(group.options());
    for (Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      RMSpropParamState& state = state_of<RMSpropParamState>(p);
      if (!state.square_avg().defined()) {
        state.square_avg(zeros_like(p));
        if (o.momentum() > 0) state.momentum_buffer(zeros_like(p));
        if (o.centered()) state.grad_avg(zeros_like(p));
      }
      state.step(state.step() + 1);
      Tensor grad = p.grad();
      if (o.weight_decay() != 0) grad = grad.add(p, o.weight_decay());
      state.square_avg().mul_(o.alpha()).add_(grad * grad, 1 - o.alpha());
      Tensor avg;
      if (o.centered()) {
        Tensor& grad_avg = state.grad_avg();
        grad_avg.mul_(o.alpha()).add_(grad, 1 - o.alpha());
        avg = state.square_avg().sub(grad_avg * grad_avg).sqrt_().add_(o.eps());
      } else {
        avg = state.square_avg().sqrt().add_(o.eps());
      }
      if (o.momentum() > 0) {
        Tensor& buf = state.momentum_buffer();
        buf.mul_(o.momentum()).add_(grad / avg);
        p.add_(buf, -o.lr());
      } else {
        p.add_(grad / avg, -o.lr());
      }
    }
  }
  return loss;
}

// PyTorch's names, as in optimizer.state_dict() (Note [Optimizers in PyTorch's layout]).
template <class O, class Visit>
void rmsprop_options_fields(O& o, Visit& visit) {
  visit("lr", o.lr());
  visit("alpha", o.alpha());
  visit("eps", o.eps());
  visit("weight_decay", o.weight_decay());
  visit("momentum", o.momentum());
  visit("centered", o.centered());
}
template <class S, class Visit>
void rmsprop_state_fields(S& s, Visit& visit) {
  visit("step", s.step());
  visit("square_avg", s.square_avg());
  visit("momentum_buffer", s.momentum_buffer());
  visit("grad_avg", s.grad_avg());
}
EMBER_OPTIM_SERIALIZE(RMSpropOptions, rmsprop_options_fields)
EMBER_OPTIM_SERIALIZE(RMSpropParamState, rmsprop_state_fields)

}  // namespace ember::optim
