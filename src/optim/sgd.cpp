// optim::SGD: p -= lr * (momentum buffer or gradient), PyTorch's formulation.
#include "ember/optim/sgd.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/ops.h"

namespace ember::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : Optimizer(std::move(params), options.lr, "SGD"), options_(options) {
  EMBER_CHECK_T(ValueError, options.momentum >= 0.0, "[SGD] Invalid momentum value: ",
                options.momentum);
  EMBER_CHECK_T(ValueError, options.weight_decay >= 0.0, "[SGD] Invalid weight_decay value: ",
                options.weight_decay);
  EMBER_CHECK_T(ValueError, !options.nesterov || (options.momentum > 0 && options.dampening == 0),
                "[SGD] Nesterov momentum requires a momentum and zero dampening");
}

void SGD::step() {
  NoGradGuard no_grad;
  const SGDOptions& o = options_;
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    if (!p.grad().defined()) continue;
    Tensor d = p.grad();
    if (o.weight_decay != 0) d = d + p * o.weight_decay;
    if (o.momentum != 0) {
      bool first = !has_state(i, 0);
      Tensor& buf = state(i, 0);
      // The first step starts the buffer at the gradient itself (no dampening), as PyTorch.
      if (first) buf.copy_(d);
      else buf.mul_(o.momentum).add_(d, 1 - o.dampening);
      d = o.nesterov ? d + buf * o.momentum : buf;
    }
    p.add_(d, -lr_);  // one fused multiply-add over the parameter
  }
}

}  // namespace ember::optim
