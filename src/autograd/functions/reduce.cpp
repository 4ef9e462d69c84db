// Backward formulas of the reductions (see reduce.h).
#include "autograd/functions/reduce.h"

#include <cmath>

#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember::autograd::functions {

ReducedShape::ReducedShape(const Tensor& x, const bool (&reduced)[detail::kMaxDims])
    : input(x.sizes().vec()), kept(input) {
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!reduced[d]) continue;
    dims.push_back(d);
    count *= kept[d];
    kept[d] = 1;
  }
}

namespace {

// t_k + t_(k+1) + ... along dim: PyTorch's reversed_cumsum.
Tensor reversed_cumsum(const Tensor& t, int64_t dim) {
  return sum(t, {dim}, true) - cumsum(t, dim) + t;
}

// A reduction's gradient, and the input and result its node saved (0 and 1), in the opmath type.
struct OpmathOperands {
  Tensor g, x, out;
  explicit OpmathOperands(const Context& c)
      : g(in_opmath(c.grad())), x(in_opmath(c.saved(0))), out(in_opmath(c.saved(1))) {}
};

// `dx`, computed in the opmath type, back in the gradient's dtype; undefined stays undefined.
Grads in_grad_dtype(const Context& c, const Tensor& dx) {
  return Grads{dx.defined() ? dx.to(c.grad().scalar_type()) : dx};
}

// g shared evenly by the elements where `hits` (in g's dtype) is 1.
Tensor shared_by(const Tensor& g, const Tensor& hits, const ReducedShape& r) {
  return r.keep(g) * hits / sum(hits, r.dims, /*keepdim=*/true);
}

// d prod / d x_i: the product of the slice's other elements. That is out / x_i where the slice
// has no zero; where it has one, the zero's position gets the product of the rest and every
// other position 0 (= out / x_i); with two or more zeros it is 0 everywhere.
Tensor product_of_others(const Tensor& x, const Tensor& out, const ReducedShape& r) {
  Tensor is_zero = eq(x, 0);
  Tensor zeros = sum(is_zero, r.dims, /*keepdim=*/true);
  Tensor without_zeros = where(is_zero, 1, x);
  Tensor rest = r.dims.size() == 1 ? prod(without_zeros, r.dims[0], /*keepdim=*/true)
                                   : r.keep(prod(without_zeros));
  return where(is_zero, where(zeros == 1, rest, 0), r.keep(out) / x);
}

// The infinity norm's gradient: shared by the elements of the largest magnitude, and by the
// NaNs, which are what made a NaN norm (PyTorch's rule).
Tensor norm_inf_grad(const OpmathOperands& o, const ReducedShape& r) {
  Tensor magnitude = abs(o.x);
  Tensor hits =
      logical_or(magnitude == r.keep(o.out), magnitude != magnitude).to(o.g.scalar_type());
  return sign(o.x) * shared_by(o.g, hits, r);
}

// x minus its mean over the reduced dims: var's and std's gradients are proportional to it.
Tensor centered(const Tensor& x, const ReducedShape& r) {
  return x - mean(x, r.dims, /*keepdim=*/true);
}

}  // namespace

Grads SumBackward::operator()(const Context& c) const {
  return in_grad_dtype(c, shape.spread(in_opmath(c.grad())));
}

Grads MeanBackward::operator()(const Context& c) const {
  return in_grad_dtype(c, shape.spread(in_opmath(c.grad())) / static_cast<double>(shape.count));
}

Grads ProdBackward::operator()(const Context& c) const {
  const OpmathOperands o(c);
  return in_grad_dtype(c, shape.spread(o.g) * product_of_others(o.x, o.out, shape));
}

Grads ExtremaBackward::operator()(const Context& c) const {
  const OpmathOperands o(c);
  return in_grad_dtype(c, shared_by(o.g, (o.x == shape.keep(o.out)).to(o.g.scalar_type()), shape));
}

Grads EvenlyDistributedBackward::operator()(const Context& c) const {
  const OpmathOperands o(c);
  Tensor kept = shape.keep(o.out);
  Tensor hits =
      logical_or(o.x == kept, logical_and(o.x != o.x, kept != kept)).to(o.g.scalar_type());
  return in_grad_dtype(c, shared_by(o.g, hits, shape));
}

Grads ValueSelectingBackward::operator()(const Context& c) const {
  // A 0-dim input has no dim to select along: its one value is the result.
  if (input.empty()) return Grads{c.grad()};
  Tensor index = keepdim ? c.saved(0) : c.saved(0).unsqueeze(dim);
  Tensor g = keepdim ? c.grad() : c.grad().unsqueeze(dim);
  return Grads{scatter(zeros(input, g.options()), dim, index, g)};
}

Grads VarBackward0::operator()(const Context& c) const {
  const OpmathOperands o(c);
  const double n = static_cast<double>(shape.count) - correction;
  return in_grad_dtype(c, shape.keep(o.g) * centered(o.x, shape) * (2.0 / n));
}

Grads StdBackward0::operator()(const Context& c) const {
  const OpmathOperands o(c);
  const double n = static_cast<double>(shape.count) - correction;
  Tensor deviation = shape.keep(o.out);
  // A zero std (all elements equal) passes no gradient, as in PyTorch.
  return in_grad_dtype(
      c, where(deviation == 0, 0, shape.keep(o.g) * centered(o.x, shape) / (deviation * n)));
}

Grads NormBackward1::operator()(const Context& c) const {
  if (p == 0.0) return Grads{Tensor()};  // a count of non-zeros: no gradient (PyTorch)
  const OpmathOperands o(c);
  if (p == 1.0) return in_grad_dtype(c, shape.keep(o.g) * sign(o.x));
  if (std::isinf(p)) return in_grad_dtype(c, norm_inf_grad(o, shape));
  // sign(x) |x|^(p-1) / ||x||^(p-1); zero where the norm is zero, and where x is (for p < 1,
  // |x|^(p-1) is infinite there), as in PyTorch.
  Tensor n = shape.keep(o.out);
  Tensor scale = where(n == 0, 0.0, shape.keep(o.g) / pow(n, p - 1));
  Tensor dx = p == 2.0 ? o.x : where(o.x == 0, 0.0, sign(o.x) * pow(abs(o.x), p - 1));
  return in_grad_dtype(c, scale * dx);
}

Grads LogsumexpBackward0::operator()(const Context& c) const {
  const OpmathOperands o(c);
  return in_grad_dtype(c, shape.keep(o.g) * exp(o.x - shape.keep(o.out)));
}

Grads CumsumBackward0::operator()(const Context& c) const {
  return Grads{reversed_cumsum(c.grad(), dim)};
}

// Note [cumprod's gradient]
// y_j = x_0 ... x_j, so dL/dx_k = sum over j >= k of g_j times the product of x_0 ... x_j
// without x_k. Without zeros that is y_j / x_k: the reversed cumulative sum of g y, over x.
// With zeros (PyTorch's cumprod_backward, in O(n) as there): before a line's first zero the
// same holds, since every y_j past the zero is 0 and so is the true product; at the first zero
// the products are those of x with that zero replaced by 1; past it every product contains the
// zero, so the gradient is 0. The division is guarded so that no NaN is formed where it is not
// taken, which keeps a second backward through `where` finite.
Grads CumprodBackward0::operator()(const Context& c) const {
  const OpmathOperands o(c);
  const Tensor is_zero = o.x == 0;
  if (!is_zero.any().item<bool>()) return in_grad_dtype(c, reversed_cumsum(o.g * o.out, dim) / o.x);
  const Tensor zeros_so_far = is_zero.cumsum(dim);
  const Tensor before_first = zeros_so_far == 0;
  const Tensor first_zero = logical_and(is_zero, zeros_so_far == 1);
  const Tensor before = reversed_cumsum(o.g * o.out, dim) / where(before_first, o.x, 1.0);
  const Tensor skipping_zero = cumprod(where(first_zero, 1.0, o.x), dim);
  const Tensor at_zero = reversed_cumsum(o.g * skipping_zero, dim);
  return in_grad_dtype(c, where(before_first, before, where(first_zero, at_zero, 0.0)));
}

// The softmaxes compute in the opmath type: the sum cancels against g beyond 16-bit precision.
Grads SoftmaxBackward0::operator()(const Context& c) const {
  Tensor g = in_opmath(c.grad()), y = in_opmath(c.saved(0));
  return in_grad_dtype(c, y * (g - sum(g * y, {dim}, true)));
}

Grads LogSoftmaxBackward0::operator()(const Context& c) const {
  Tensor g = in_opmath(c.grad()), y = in_opmath(c.saved(0));
  return in_grad_dtype(c, g - exp(y) * sum(g, {dim}, true));
}

}  // namespace ember::autograd::functions
