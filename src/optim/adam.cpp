// optim::Adam / AdamW: bias-corrected moment estimates, PyTorch's update order, one fused pass
// per parameter (Note [Fused optimizer steps]).
#include "ember/optim/adam.h"

#include <cmath>

#include "core/check.h"
#include "ember/autograd.h"
#include "kernels/optim_step.h"
#include "optim/fused_update.h"

namespace ember::optim {

Adam::Adam(std::vector<Tensor> params, AdamOptions options)
    : Adam(std::move(params), options, false, "Adam") {}

Adam::Adam(std::vector<Tensor> params, AdamOptions options, bool decoupled, const char* name)
    : Optimizer(std::move(params), options.lr, name),
      options_(options),
      decoupled_(decoupled),
      steps_(params_.size(), 0) {
  EMBER_CHECK_T(ValueError, options.eps >= 0.0, "[", name,
                "] Invalid epsilon value: ", options.eps);
  EMBER_CHECK_T(ValueError, options.beta1 >= 0.0 && options.beta1 < 1.0, "[", name,
                "] Invalid beta parameter at index 0: ", options.beta1);
  EMBER_CHECK_T(ValueError, options.beta2 >= 0.0 && options.beta2 < 1.0, "[", name,
                "] Invalid beta parameter at index 1: ", options.beta2);
  EMBER_CHECK_T(ValueError, options.weight_decay >= 0.0, "[", name,
                "] Invalid weight_decay value: ", options.weight_decay);
}

AdamW::AdamW(std::vector<Tensor> params, AdamOptions options)
    : Adam(std::move(params), options, true, "AdamW") {}

void Adam::step() {
  NoGradGuard no_grad;
  const AdamOptions& o = options_;
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    if (!p.grad().defined()) continue;
    const auto count = static_cast<double>(++steps_[i]);
    const double bias1 = 1 - std::pow(o.beta1, count);
    const double bias2 = 1 - std::pow(o.beta2, count);
    const kernels::AdamStep step{
        lr_, o.beta1, o.beta2, o.eps, o.weight_decay, std::sqrt(bias2), lr_ / bias1, decoupled_};
    const Tensor& m = state(i, 0);
    const Tensor& v = state(i, 1);
    fused_update(p, [&](const Tensor& param, const Tensor& grad) {
      kernels::adam_step_stub(param.device().type(), param, grad, m, v, step);
    });
  }
}

}  // namespace ember::optim
