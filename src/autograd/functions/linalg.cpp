// Backward formula of the matrix products (see linalg.h).
#include "autograd/functions/linalg.h"

#include "ember/linalg.h"
#include "ember/ops.h"

namespace ember::autograd::functions {
namespace {

// l @ r for a gradient that will flow into `like`: when `like` is a transposed matrix (a
// Linear's weight.t()), computing (r^T @ l^T)^T gives the gradient that same layout, so after
// TBackward0 it arrives at the leaf contiguous and is stored without a copy. Same flops either way.
Tensor product_grad(const Tensor& l, const Tensor& r, const Tensor& like) {
  bool transposed = like.dim() == 2 && like.stride(0) == 1 && like.stride(1) != 1;
  if (!transposed) return matmul(l, r);
  return matmul(r.transpose(-1, -2), l.transpose(-1, -2)).transpose(-1, -2);
}

}  // namespace

Grads ProductBackward::operator()(const Context& c) const {
  const Tensor &g = c.grad(), &a = c.saved(0), &b = c.saved(1);
  bool scaled = alpha.toDouble() != 1.0;
  Tensor gs = has_self && c.needs(0) ? g * beta : Tensor();
  Tensor ga = c.needs(1) ? product_grad(g, b.transpose(-1, -2), a) : Tensor();
  Tensor gb = c.needs(2) ? product_grad(a.transpose(-1, -2), g, b) : Tensor();
  if (scaled && ga.defined()) ga = ga * alpha;
  if (scaled && gb.defined()) gb = gb * alpha;
  return Grads{gs, ga, gb};
}

}  // namespace ember::autograd::functions
