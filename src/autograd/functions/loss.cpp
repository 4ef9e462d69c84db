// Backward formulas of the losses (see loss.h).
#include "autograd/functions/loss.h"

#include <optional>

#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"

namespace ember::autograd::functions {
namespace {

// The incoming gradient of a reduced loss spread back over its per-element values.
Tensor unreduce(const Tensor& grad, Reduction::Reduction reduction, IntArrayRef shape,
                double denominator) {
  if (reduction == Reduction::None) return grad;
  Tensor g = grad.expand(shape);
  return reduction == Reduction::Mean ? g / denominator : g;
}

}  // namespace

Grads MseLossBackward0::operator()(const Context& c) const {
  const Tensor d = c.saved(0) - c.saved(1);
  Tensor g = unreduce(c.grad(), reduction, d.sizes(), static_cast<double>(d.numel())) * d * 2.0;
  return Grads{g, c.needs(1) ? -g : Tensor()};
}

Grads NllLossBackward0::operator()(const Context& c) const {
  const Tensor &index = c.saved(0), &w = c.saved(1);
  Tensor g = c.grad().reshape({-1});
  if (reduction == Reduction::Mean) g = g / c.saved(2);
  // Ignored targets get exactly 0, as in PyTorch: when every target is ignored, g is g / 0 and
  // g * 0 would be NaN.
  Tensor per_row = where(c.saved(3), g.expand(w.sizes()) * w, 0.0).unsqueeze(1);
  Tensor z = zeros(rows, per_row.options());
  return Grads{scatter(z, 1, index.unsqueeze(1), per_row)};
}

Grads BinaryCrossEntropyWithLogitsBackward0::operator()(const Context& c) const {
  const Tensor &x = c.saved(0), &y = c.saved(1), &w = c.saved(2), &pw = c.saved(3);
  Tensor g = unreduce(c.grad(), reduction, x.sizes(), static_cast<double>(x.numel()));
  if (w.defined()) g = g * w;
  Tensor l = pw.defined() ? 1 + (pw - 1) * y : Tensor();
  Tensor s = sigmoid(x);
  Tensor gx = l.defined() ? (1 - y) - l * (1 - s) : s - y;
  Tensor gy;
  if (c.needs(1)) {
    Tensor softplus_neg = log1p(exp(-abs(x))) + clamp(-x, 0.0, std::nullopt);
    gy = g * (pw.defined() ? -x + (pw - 1) * softplus_neg : -x);
  }
  return Grads{g * gx, gy};
}

}  // namespace ember::autograd::functions
