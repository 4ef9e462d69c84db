// The elementwise losses, as ATen's (l1_loss, smooth_l1_loss, huber_loss, soft_margin_loss,
// binary_cross_entropy, kl_div, poisson_nll_loss) and F::kl_div's kBatchMean and
// F::gaussian_nll_loss, which ATen lacks: each composed of differentiable ops, so it runs on every
// device and autograd derives its backward.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "core/check.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/warning.h"
#include "ops/loss_common.h"

namespace ember {
namespace {

// log(x) clamped at -100, as PyTorch's binary_cross_entropy clamps it, with a zero gradient (not
// 0 * inf) where x is 0.
Tensor log_clamped_for_bce(const Tensor& x) {
  Tensor positive = x > 0;
  return where(positive, log(where(positive, x, 1.0)).clamp_min(-100), -100.0);
}

// x log y with 0 where x is 0, as at::xlogy(x, x).
Tensor x_log_x(const Tensor& x) { return x * log(where(x == 0, 1.0, x)); }

}  // namespace

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "l1_loss");
  ops::check_loss_shapes("l1_loss", self, target);
  return ops::apply_loss_reduction(abs(self - target), kind);
}

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  const auto kind = ops::loss_reduction(reduction, "smooth_l1_loss");
  EMBER_CHECK_T(ValueError, beta >= 0,
                "[smooth_l1_loss] smooth_l1_loss does not support negative values for beta, got ",
                beta);
  if (beta == 0) return l1_loss(self, target, reduction);  // as PyTorch: the limit is l1_loss
  ops::check_loss_shapes("smooth_l1_loss", self, target);
  Tensor d = abs(self - target);
  return ops::apply_loss_reduction(where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), kind);
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  const auto kind = ops::loss_reduction(reduction, "huber_loss");
  EMBER_CHECK_T(ValueError, delta > 0,
                "[huber_loss] huber_loss does not support non-positive values for delta, got ",
                delta);
  ops::check_loss_shapes("huber_loss", self, target);
  Tensor d = abs(self - target);
  return ops::apply_loss_reduction(where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), kind);
}

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "soft_margin_loss");
  ops::check_loss_shapes("soft_margin_loss", self, target);
  return ops::apply_loss_reduction(log1p(exp(-target * self)), kind);
}

// Note [binary_cross_entropy's gradient]: PyTorch's backward is the unclamped derivative
// (x - y) / max(x (1 - x), 1e-12); this composed form differentiates the clamped logs instead.
// The two agree wherever both logs are above -100 and x (1 - x) > 1e-12, i.e. everywhere but
// probabilities within about 1e-12 of 0 or 1.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight,
                            int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "binary_cross_entropy");
  EMBER_CHECK_T(ValueError, target.sizes() == self.sizes(),
                "[binary_cross_entropy] Using a target size (", target.sizes(),
                ") that is different to the input size (", self.sizes(),
                ") is deprecated. Please ensure they have the same size.");
  ops::check_weight_shape("binary_cross_entropy", "weight", weight, self);
  {
    NoGradGuard no_grad;
    EMBER_CHECK_T(ValueError, logical_and(self >= 0, self <= 1).all().item<bool>(),
                  "[binary_cross_entropy] all elements of input should be between 0 and 1");
  }
  Tensor losses =
      -(target * log_clamped_for_bce(self) + (1 - target) * log_clamped_for_bce(1 - self));
  return ops::apply_loss_reduction(weight.defined() ? losses * weight : losses, kind);
}

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  const auto kind = ops::loss_reduction(reduction, "kl_div");
  ops::check_loss_shapes("kl_div", self, target);
  Tensor losses = log_target ? exp(target) * (target - self) : x_log_x(target) - target * self;
  return ops::apply_loss_reduction(losses, kind);
}

Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full,
                        double eps, int64_t reduction) {
  const auto kind = ops::loss_reduction(reduction, "poisson_nll_loss");
  ops::check_loss_shapes("poisson_nll_loss", input, target);
  Tensor losses = log_input ? exp(input) - target * input : input - target * log(input + eps);
  if (full) {  // log(target!) by Stirling, which PyTorch leaves out for targets of 0 and 1
    Tensor stirling = target * log(target) - target + 0.5 * log(2 * std::numbers::pi * target);
    losses = losses + where(target > 1, stirling, 0.0);
  }
  return ops::apply_loss_reduction(losses, kind);
}

namespace nn::functional {

Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options) {
  const auto& reduction = options.reduction();
  if (std::holds_alternative<enumtype::kMean>(reduction))
    warn(Warning(UserWarning(), {"kl_div", __FILE__, __LINE__},
                 "reduction: 'mean' divides the total loss by both the batch size and the support "
                 "size.'batchmean' divides only by the batch size, and aligns with the KL div "
                 "math definition.'mean' will be changed to behave the same as 'batchmean' in the "
                 "next major release.",
                 false));
  if (!std::holds_alternative<enumtype::kBatchMean>(reduction))
    return ember::kl_div(input, target, enumtype::reduction_get_enum(reduction),
                         options.log_target());
  Tensor sum = ember::kl_div(input, target, Reduction::Sum, options.log_target());
  return input.dim() == 0 ? sum : sum / static_cast<double>(input.size(0));
}

// PyTorch's Python F.gaussian_nll_loss, check for check.
Tensor gaussian_nll_loss(const Tensor& input, const Tensor& target, const Tensor& var_,
                         const GaussianNLLLossFuncOptions& options) {
  const auto kind = enumtype::reduction_get_enum(options.reduction());
  Tensor var = var_;
  if (var.sizes() != input.sizes()) {
    const IntArrayRef leading =
        input.sizes().slice(0, static_cast<size_t>(std::max<int64_t>(input.dim() - 1, 0)));
    if (input.dim() > 0 && var.sizes() == leading) {
      var = var.unsqueeze(-1);  // one variance per row of the last dimension
    } else {
      EMBER_CHECK_T(ValueError,
                    input.dim() > 0 && var.dim() == input.dim() &&
                        var.sizes().slice(0, leading.size()) == leading && var.size(-1) == 1,
                    "[gaussian_nll_loss] var is of incorrect size: var of shape ", var_.sizes(),
                    " for input of shape ", input.sizes(),
                    " (it must be the input's shape, or it without its last dimension, or with "
                    "1 there)");
    }
  }
  ops::check_loss_shapes("gaussian_nll_loss", input, target);
  {
    NoGradGuard no_grad;
    EMBER_CHECK_T(ValueError, !(var < 0).any().item<bool>(),
                  "[gaussian_nll_loss] var has negative entry/entries");
  }
  // As PyTorch, the clamp happens outside autograd: the gradient reaches var as if unclamped.
  var = var.clone();
  {
    NoGradGuard no_grad;
    var.clamp_min_(options.eps());
  }
  Tensor d = input - target;
  Tensor losses = 0.5 * (log(var) + d * d / var);
  if (options.full()) losses = losses + 0.5 * std::log(2 * std::numbers::pi);
  return ops::apply_loss_reduction(losses, kind);
}

}  // namespace nn::functional
}  // namespace ember
