// Adam's and AdamW's update of one parameter: the fused kernel, or PyTorch's tensor ops when
// AMSGrad also keeps the running maximum of the second moment (which the kernel does not).
#include "optim/adam_update.h"

#include <cmath>

#include "core/check.h"
#include "ember/ops.h"
#include "kernels/optim_step.h"
#include "optim/fused_update.h"

namespace ember::optim {

void check_adam_settings(const AdamSettings& s) {
  EMBER_CHECK_T(ValueError, s.lr >= 0, "Invalid learning rate: ", s.lr);
  EMBER_CHECK_T(ValueError, s.eps >= 0, "Invalid epsilon value: ", s.eps);
  EMBER_CHECK_T(ValueError, 0 <= s.beta1 && s.beta1 < 1.0,
                "Invalid beta parameter at index 0: ", s.beta1);
  EMBER_CHECK_T(ValueError, 0 <= s.beta2 && s.beta2 < 1.0,
                "Invalid beta parameter at index 1: ", s.beta2);
  EMBER_CHECK_T(ValueError, s.weight_decay >= 0, "Invalid weight_decay value: ", s.weight_decay);
}

namespace {

// PyTorch's AMSGrad, op by op: the denominator uses the largest second moment seen so far.
void amsgrad_update(Tensor& p, const AdamSettings& s, double bias1, double bias2, Tensor& exp_avg,
                    Tensor& exp_avg_sq, Tensor& max_exp_avg_sq) {
  Tensor grad = p.grad();
  if (s.decoupled) p.mul_(1 - s.lr * s.weight_decay);
  else if (s.weight_decay != 0) grad = grad.add(p, s.weight_decay);
  exp_avg.mul_(s.beta1).add_(grad, 1 - s.beta1);
  exp_avg_sq.mul_(s.beta2).add_(grad * grad, 1 - s.beta2);
  maximum_out(max_exp_avg_sq, max_exp_avg_sq, exp_avg_sq);
  const Tensor denom = (max_exp_avg_sq.sqrt() / std::sqrt(bias2)).add_(s.eps);
  p.add_(exp_avg / denom, -s.lr / bias1);
}

}  // namespace

void adam_update(Tensor& p, const AdamSettings& s, int64_t step, Tensor& exp_avg,
                 Tensor& exp_avg_sq, Tensor& max_exp_avg_sq) {
  const auto count = static_cast<double>(step);
  const double bias1 = 1 - std::pow(s.beta1, count);
  const double bias2 = 1 - std::pow(s.beta2, count);
  const Tensor& m = kernel_state(exp_avg, p);
  const Tensor& v = kernel_state(exp_avg_sq, p);
  if (s.amsgrad) {
    kernel_state(max_exp_avg_sq, p);
    amsgrad_update(p, s, bias1, bias2, exp_avg, exp_avg_sq, max_exp_avg_sq);
    return;
  }
  const kernels::AdamStep fused{s.lr,           s.beta1,          s.beta2,      s.eps,
                                s.weight_decay, std::sqrt(bias2), s.lr / bias1, s.decoupled};
  fused_update(p, [&](const Tensor& param, const Tensor& grad) {
    kernels::adam_step_stub(param.device().type(), param, grad, m, v, fused);
  });
}

}  // namespace ember::optim
