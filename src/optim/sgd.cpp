// optim::SGD: p -= lr * (momentum buffer or gradient), PyTorch's formulation; with momentum
// one fused pass per parameter (Note [Fused optimizer steps]).
#include "ember/optim/sgd.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/ops.h"
#include "kernels/optim_step.h"
#include "optim/closure.h"
#include "optim/fused_update.h"
#include "optim/serialize_fields.h"

namespace ember::optim {

SGD::SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<SGDOptions>(defaults)) {
  EMBER_CHECK_T(ValueError, defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  EMBER_CHECK_T(ValueError, defaults.momentum() >= 0,
                "Invalid momentum value: ", defaults.momentum());
  EMBER_CHECK_T(ValueError, defaults.weight_decay() >= 0,
                "Invalid weight_decay value: ", defaults.weight_decay());
  EMBER_CHECK_T(ValueError,
                !defaults.nesterov() || (defaults.momentum() > 0 && defaults.dampening() == 0),
                "Nesterov momentum requires a momentum and zero dampening");
}

Tensor SGD::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (OptimizerParamGroup& group : param_groups_) {
    const auto& o = static_cast<const SGDOptions&>(group.options());
    for (Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      if (o.momentum() == 0) {  // one multiply-add over the parameter already: nothing to fuse
        p.add_(o.weight_decay() != 0 ? p.grad() + p * o.weight_decay() : p.grad(), -o.lr());
        continue;
      }
      // The first step starts the buffer at the gradient itself (no dampening), as PyTorch.
      Tensor& buffer = state_of<SGDParamState>(p).momentum_buffer();
      const bool first = !buffer.defined();
      const Tensor& buf = kernel_state(buffer, p);
      const kernels::SgdMomentumStep step{o.lr(),           o.momentum(), o.dampening(),
                                          o.weight_decay(), o.nesterov(), first};
      fused_update(p, [&](const Tensor& param, const Tensor& grad) {
        kernels::sgd_momentum_step_stub(param.device().type(), param, grad, buf, step);
      });
    }
  }
  return loss;
}

// PyTorch's names, as in optimizer.state_dict() (Note [Optimizers in PyTorch's layout]).
template <class O, class Visit>
void sgd_options_fields(O& o, Visit& visit) {
  visit("lr", o.lr());
  visit("momentum", o.momentum());
  visit("dampening", o.dampening());
  visit("weight_decay", o.weight_decay());
  visit("nesterov", o.nesterov());
}
template <class S, class Visit>
void sgd_state_fields(S& s, Visit& visit) {
  visit("momentum_buffer", s.momentum_buffer());
}
EMBER_OPTIM_SERIALIZE(SGDOptions, sgd_options_fields)
EMBER_OPTIM_SERIALIZE(SGDParamState, sgd_state_fields)

}  // namespace ember::optim
