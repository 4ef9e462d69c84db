// The loss ops, as ATen's (mse_loss, nll_loss, cross_entropy_loss,
// binary_cross_entropy_with_logits, each taking a Reduction::Reduction as an int64_t), with
// PyTorch's checks and node names; their F:: forms are in ember/nn/functional/loss.h, their
// modules in nn/loss.cpp, their backward formulas in autograd/functions/loss.cpp.
#include <utility>
#include <vector>

#include "autograd/functions/loss.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/shape_stubs.h"
#include "kernels/tensor_iter.h"
#include "ops/loss_common.h"

namespace ember {
namespace {

namespace functions = autograd::functions;

using ReductionKind = Reduction::Reduction;
using ops::apply_loss_reduction;
using ops::loss_reduction;

// [N, C, d1, ...] -> [N * d1 * ..., C] and its target [N, d1, ...] -> [N * d1 * ...].
std::pair<Tensor, Tensor> as_rows(const Tensor& input, const Tensor& target) {
  if (input.dim() <= 2) return {input, target};
  std::vector<int64_t> order{0};
  for (int64_t d = 2; d < input.dim(); ++d) order.push_back(d);
  order.push_back(1);
  return {input.permute(order).reshape({-1, input.size(1)}), target.reshape({-1})};
}

[[noreturn]] void target_out_of_range(const kernels::IndexBounds& bounds, int64_t value,
                                      const char* note) {
  detail::fail<IndexError>("[", bounds.op, "] Target ", value, " is out of bounds: there are ",
                           bounds.size, " classes (0 to ", bounds.size - 1, ")", note);
}

// Flat int64 targets prepared for indexing, once per loss: nll_loss's, and cross_entropy's
// label smoothing, whose mean divides by the same summed weights.
struct CountedTargets {
  Tensor counted;  // bool: the target is not ignore_index
  Tensor safe;     // the target, with ignored ones replaced by class 0 (safe to index with)
  Tensor weight;   // the class's weight (1 without weights), 0 where the target is ignored
  Tensor total;    // weight summed: a mean's denominator
};

// The targets are checked against the class count here, before index_select or gather can name
// one.
CountedTargets counted_targets(const Tensor& t, const Tensor& weight, int64_t ignore_index,
                               int64_t classes, ScalarType dtype) {
  NoGradGuard no_grad;
  CountedTargets c;
  c.counted = t != ignore_index;
  c.safe = where(c.counted, t, 0);
  kernels::check_indices_stub(c.safe.device().type(), c.safe,
                              {"nll_loss", 1, classes, &target_out_of_range});
  c.weight = c.counted.to(dtype);
  if (weight.defined()) c.weight = index_select(weight.to(dtype), 0, c.safe) * c.weight;
  c.total = c.weight.sum();
  return c;
}

// nll_loss's input and target, checked, as rows of log-probabilities and their flat targets.
struct NllRows {
  Tensor rows;                        // [N * d1 * ..., C]
  Tensor targets;                     // [N * d1 * ...], int64
  std::vector<int64_t> target_shape;  // the target's own: [] when unbatched
};

NllRows nll_rows(const Tensor& input_, const Tensor& target_, const Tensor& weight) {
  EMBER_CHECK_T(TypeError, input_.is_floating_point(),
                "[nll_loss] expected floating-point "
                "log-probabilities as input, got ",
                input_.scalar_type());
  EMBER_CHECK_T(TypeError,
                target_.scalar_type() == kInt64 || target_.scalar_type() == kInt32 ||
                    target_.scalar_type() == kUInt8,
                "[nll_loss] expected class indices (int64) as target, got ", target_.scalar_type(),
                "; for class probabilities use cross_entropy");
  bool unbatched = input_.dim() == 1;
  Tensor input = unbatched ? input_.unsqueeze(0) : input_;
  Tensor target = unbatched ? target_.reshape({1}) : target_;
  EMBER_CHECK_T(
      ValueError,
      input.dim() >= 2 && target.dim() == input.dim() - 1 && target.size(0) == input.size(0),
      "[nll_loss] expected input [N, C] (or [C], or [N, C, d1, ...]) and target [N] "
      "(or [], or [N, d1, ...]); got input ",
      input_.sizes(), " and target ", target_.sizes());
  const int64_t classes = input.size(1);
  EMBER_CHECK_T(ValueError, !weight.defined() || (weight.dim() == 1 && weight.size(0) == classes),
                "[nll_loss] weight should be a 1-D tensor of ", classes,
                " elements (one per "
                "class), got shape ",
                weight.sizes());
  auto [rows, flat_target] = as_rows(input, target);
  return {rows, flat_target.to(kInt64), target_.sizes().vec()};
}

Tensor nll_loss_of(const NllRows& in, const CountedTargets& targets, ReductionKind reduction) {
  const Tensor& rows = in.rows;
  bool grad = autograd::needs_grad(rows);
  Tensor negative_weight, out;
  {
    NoGradGuard no_grad;
    negative_weight = -targets.weight;
    Tensor losses = gather(rows, 1, targets.safe.unsqueeze(1)).squeeze(1) * negative_weight;
    if (reduction == Reduction::None) out = losses.view(in.target_shape);
    else if (reduction == Reduction::Sum) out = losses.sum();
    else out = losses.sum() / targets.total;
  }
  if (grad)
    autograd::record({out}, {rows}, {targets.safe, negative_weight, targets.total, targets.counted},
                     functions::NllLossBackward0{reduction, rows.sizes().vec()});
  return out;
}

}  // namespace

Tensor mse_loss(const Tensor& input, const Tensor& target, int64_t reduction_) {
  const ReductionKind reduction = loss_reduction(reduction_, "mse_loss");
  EMBER_CHECK_T(TypeError, input.is_floating_point() && target.is_floating_point(),
                "[mse_loss] expected floating-point input and target, got ", input.scalar_type(),
                " and ", target.scalar_type());
  bool grad = autograd::needs_grad(input, target);
  Tensor diff, out;
  {
    NoGradGuard no_grad;
    diff = input - target;
    out = apply_loss_reduction(diff * diff, reduction);
  }
  if (grad)
    autograd::record({out}, {input, target}, {input, target},
                     functions::MseLossBackward0{reduction});
  return out;
}

Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index) {
  const NllRows in = nll_rows(input, target, weight);
  return nll_loss_of(
      in, counted_targets(in.targets, weight, ignore_index, in.rows.size(1), in.rows.scalar_type()),
      loss_reduction(reduction, "nll_loss"));
}

Tensor cross_entropy_loss(const Tensor& input, const Tensor& target, const Tensor& weight,
                          int64_t reduction_, int64_t ignore_index, double label_smoothing) {
  const ReductionKind reduction = loss_reduction(reduction_, "cross_entropy");
  EMBER_CHECK_T(ValueError, label_smoothing >= 0.0 && label_smoothing <= 1.0,
                "[cross_entropy] label_smoothing must be between 0.0 and 1.0, got ",
                label_smoothing);
  const int64_t class_dim = input.dim() == 1 ? 0 : 1;
  Tensor logp = log_softmax(input, class_dim);
  const int64_t classes = input.size(class_dim);
  // Per-class weights broadcast along the class dim.
  auto class_weighted = [&](const Tensor& t) {
    if (!weight.defined()) return t;
    std::vector<int64_t> shape(t.dim(), 1);
    shape[class_dim] = classes;
    return t * weight.to(t.scalar_type()).view(shape);
  };
  if (target.is_floating_point()) {  // class probabilities
    EMBER_CHECK_T(ValueError, ignore_index < 0,
                  "[cross_entropy] ignore_index is not supported "
                  "for floating point target (class probabilities); got ignore_index=",
                  ignore_index);
    EMBER_CHECK_T(ValueError, target.sizes() == input.sizes(),
                  "[cross_entropy] a probability "
                  "target must have the input's shape ",
                  input.sizes(), ", got ", target.sizes());
    Tensor smoothed = label_smoothing > 0
                          ? target * (1 - label_smoothing) + label_smoothing / double(classes)
                          : target;
    Tensor losses = -class_weighted(logp * smoothed).sum({class_dim});
    if (reduction == Reduction::Mean && input.dim() > 1)
      return losses.sum() / static_cast<double>(losses.numel());
    return apply_loss_reduction(losses, reduction);
  }
  const NllRows in = nll_rows(logp, target, weight);
  const CountedTargets targets =
      counted_targets(in.targets, weight, ignore_index, classes, logp.scalar_type());
  Tensor nll = nll_loss_of(in, targets, reduction);
  if (label_smoothing == 0.0) return nll;
  // PyTorch's smoothing: (1 - e) * nll + e / C * (-sum_c w_c log p_c), over counted targets.
  // where, not * counted: with every target ignored the mean divides by 0, and its inf
  // gradient times 0 would be NaN where PyTorch's gradient is 0.
  Tensor smooth = -class_weighted(logp).sum({class_dim});
  smooth = where(targets.counted.view(smooth.sizes()), smooth, 0.0);
  Tensor smooth_reduced;
  if (reduction == Reduction::None) smooth_reduced = smooth;
  else if (reduction == Reduction::Sum) smooth_reduced = smooth.sum();
  else smooth_reduced = smooth.sum() / targets.total;
  return nll * (1 - label_smoothing) + smooth_reduced * (label_smoothing / double(classes));
}

Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        int64_t reduction_) {
  const ReductionKind reduction = loss_reduction(reduction_, "binary_cross_entropy_with_logits");
  EMBER_CHECK_T(ValueError, target.sizes() == input.sizes(),
                "[binary_cross_entropy_with_logits] "
                "Target size (",
                target.sizes(), ") must be the same as input size (", input.sizes(), ")");
  ops::check_weight_shape("binary_cross_entropy_with_logits", "weight", weight, input);
  ops::check_weight_shape("binary_cross_entropy_with_logits", "pos_weight", pos_weight, input);
  bool grad = autograd::needs_grad(input, target);
  Tensor out;
  {
    NoGradGuard no_grad;
    // (1 - y) x + L (log(1 + e^-|x|) + max(-x, 0)) with L = 1 + (pos_weight - 1) y: stable.
    Tensor softplus_neg = log1p(exp(-abs(input))) + clamp(-input, 0.0, std::nullopt);
    Tensor l = pos_weight.defined() ? 1 + (pos_weight - 1) * target : Tensor();
    Tensor losses = (1 - target) * input + (l.defined() ? l * softplus_neg : softplus_neg);
    if (weight.defined()) losses = losses * weight;
    out = apply_loss_reduction(losses, reduction);
  }
  if (grad)
    autograd::record({out}, {input, target}, {input, target, weight, pos_weight},
                     functions::BinaryCrossEntropyWithLogitsBackward0{reduction});
  return out;
}

}  // namespace ember
