// optim::SGD: p -= lr * (momentum buffer or gradient), PyTorch's formulation; with momentum
// one fused pass per parameter (Note [Fused optimizer steps]).
#include "ember/optim/sgd.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/ops.h"
#include "kernels/optim_step.h"
#include "optim/fused_update.h"

namespace ember::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : Optimizer(std::move(params), options.lr, "SGD"), options_(options) {
  EMBER_CHECK_T(ValueError, options.momentum >= 0.0,
                "[SGD] Invalid momentum value: ", options.momentum);
  EMBER_CHECK_T(ValueError, options.weight_decay >= 0.0,
                "[SGD] Invalid weight_decay value: ", options.weight_decay);
  EMBER_CHECK_T(ValueError, !options.nesterov || (options.momentum > 0 && options.dampening == 0),
                "[SGD] Nesterov momentum requires a momentum and zero dampening");
}

void SGD::step() {
  NoGradGuard no_grad;
  const SGDOptions& o = options_;
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    if (!p.grad().defined()) continue;
    if (o.momentum == 0) {  // one multiply-add over the parameter already: nothing to fuse
      p.add_(o.weight_decay != 0 ? p.grad() + p * o.weight_decay : p.grad(), -lr_);
      continue;
    }
    // The first step starts the buffer at the gradient itself (no dampening), as PyTorch.
    const bool first = !has_state(i, 0);
    const Tensor& buf = state(i, 0);
    const kernels::SgdMomentumStep step{lr_,        o.momentum, o.dampening, o.weight_decay,
                                        o.nesterov, first};
    fused_update(p, [&](const Tensor& param, const Tensor& grad) {
      kernels::sgd_momentum_step_stub(param.device().type(), param, grad, buf, step);
    });
  }
}

}  // namespace ember::optim
