// cosine_similarity and pairwise_distance, composed of ember ops as ATen composes them, so that
// autograd differentiates them through those ops' nodes.
#include <algorithm>

#include "core/check.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "kernels/tensor_iter.h"

namespace ember {
namespace {

// Note [cosine_similarity's clamped norms]
// ATen clamps each norm to at least eps in place under no_grad, so where it clamps the value is
// eps while the gradient is still the norm's, x / max(||x||, eps), rather than clamp_min's zero.
// Adding the clamp's change as a constant gives both: the value is the clamped one, and the
// gradient of sqrt(s + constant) is that of the norm at the clamped value.
Tensor clamped_norm(const Tensor& x, int64_t dim, double eps) {
  Tensor squared = (x * x).sum({dim}, /*keepdim=*/true);
  return (squared + (squared.clamp_min(eps * eps) - squared).detach()).sqrt();
}

}  // namespace

Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  const ScalarType common_type = result_type(x1, x2);
  EMBER_CHECK_T(TypeError, isFloatingType(common_type),
                "[cosine_similarity] expected common dtype to be floating point, yet common "
                "dtype is ",
                common_type);
  int64_t shape[detail::kMaxDims];
  int ndim = 0;
  kernels::broadcast_shapes("cosine_similarity", x1.sizes(), x2.sizes(), shape, &ndim);
  const IntArrayRef common(shape, static_cast<size_t>(ndim));
  Tensor a = x1.expand(common), b = x2.expand(common);
  return (a / clamped_norm(a, dim, eps) * (b / clamped_norm(b, dim, eps))).sum({dim});
}

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const int64_t last = std::max(x1.dim(), x2.dim()) - 1;
  return norm(x1 - x2 + eps, p, {last}, keepdim);
}

}  // namespace ember
