// Backward formulas of the normalisations (see normalization.h).
#include "autograd/functions/normalization.h"

#include "ember/ops.h"
#include "ember/reduce.h"

namespace ember::autograd::functions {
namespace {

// The normalised part of the gradient (see normalization.h).
Tensor normalized_grad(const Tensor& gh, const Tensor& xhat, const Tensor& rstd, IntArrayRef dims) {
  return rstd * (gh - gh.mean(dims, true) - xhat * (gh * xhat).mean(dims, true));
}

struct Normalized {
  Tensor xhat, rstd;
};

// x normalised over `dims` with the saved statistics, or under create_graph with statistics
// recomputed from x (see normalization.h).
Normalized normalize(const Tensor& x, const Tensor& mean, const Tensor& rstd, IntArrayRef dims,
                     double eps) {
  if (!is_grad_enabled()) return {(x - mean) * rstd, rstd};
  Tensor centered = x - x.mean(dims, true);
  Tensor recomputed = rsqrt((centered * centered).mean(dims, true) + eps);
  return {centered * recomputed, recomputed};
}

}  // namespace

Grads NativeLayerNormBackward0::operator()(const Context& c) const {
  const Tensor x = in_opmath(c.saved(0)), weight = in_opmath(c.saved(1));
  Tensor g = in_opmath(c.grad()).reshape({rows, cols});
  const auto [xhat, rstd] = normalize(x.reshape({rows, cols}), c.saved(2), c.saved(3), 1, eps);
  Tensor gx, gw, gb;
  if (c.needs(0)) {
    Tensor gh = weight.defined() ? g * weight.reshape({1, cols}) : g;
    gx = normalized_grad(gh, xhat, rstd, 1).view(x.sizes());
  }
  if (c.needs(1)) gw = (g * xhat).sum({0}).view(weight.sizes());
  if (c.needs(2)) gb = g.sum({0}).view(normalized_shape);
  return Grads{gx, gw, gb};
}

Grads NativeBatchNormBackward0::operator()(const Context& c) const {
  const Tensor x = in_opmath(c.saved(0)), weight = in_opmath(c.saved(1));
  const Tensor g = in_opmath(c.grad());
  // Eval mode's statistics are constants: no recomputation.
  const auto [xhat, rstd] = training ? normalize(x, c.saved(2), c.saved(3), dims, eps)
                                     : Normalized{(x - c.saved(2)) * c.saved(3), c.saved(3)};
  Tensor gx, gw, gb;
  if (c.needs(0)) {
    Tensor gh = weight.defined() ? g * weight.view(stat_shape) : g;
    gx = training ? normalized_grad(gh, xhat, rstd, dims) : gh * rstd;
  }
  if (c.needs(1)) gw = (g * xhat).sum(dims);
  if (c.needs(2)) gb = g.sum(dims);
  return Grads{gx, gw, gb};
}

}  // namespace ember::autograd::functions
