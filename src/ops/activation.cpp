// The activations LibTorch has as ops but that are compositions of other ops: glu, prelu and
// rrelu.
#include <vector>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"

namespace ember {
namespace {

// glu, prelu and rrelu in training have floating kernels only in PyTorch.
void check_floating(const char* op, const Tensor& self) {
  EMBER_CHECK_T(TypeError, isFloatingType(self.scalar_type()), "[", op,
                "] expected a floating-point tensor, got dtype ", self.scalar_type());
}

// The slopes shaped to broadcast against self: one for every element, or one per channel
// (dim 1) repeated over the dims after it.
Tensor prelu_slopes(const Tensor& self, const Tensor& weight) {
  if (weight.numel() == 1) return weight.reshape({});
  EMBER_CHECK(self.dim() > 0, "Not allow zero-dim input tensor.");
  const int64_t channels = self.dim() > 1 ? self.size(1) : 1;
  EMBER_CHECK(channels == weight.numel(),
              "Mismatch of parameter numbers and input channel size. Found parameter numbers = ",
              weight.numel(), " and channel size = ", channels, ".");
  std::vector<int64_t> shape(self.dim() - 1, 1);
  shape[0] = channels;
  return weight.reshape(shape);
}

// rrelu's slopes: (lower + upper) / 2 outside training, checked as ATen checks them.
double rrelu_mean_slope(const Scalar& lower, const Scalar& upper) {
  const double l = lower.toDouble(), u = upper.toDouble();
  EMBER_CHECK(l <= u, "Lower bound should be less than or equal to the upper bound (got lower ", l,
              ", upper ", u, ")");
  return (l + u) / 2;
}

// In training, the factor of each element: a draw from U(lower, upper) where self <= 0, as
// ATen's `input <= 0`, else 1. The gradient is the same factor (ATen's grad * noise).
Tensor rrelu_noise(const Tensor& self, const Scalar& lower, const Scalar& upper) {
  check_floating("rrelu", self);
  autograd::NoGradGuard no_grad;
  Tensor draws = empty_like(self).uniform_(lower.toDouble(), upper.toDouble());
  return where(self.detach() <= 0, draws, 1.0);
}
}  // namespace

Tensor glu(const Tensor& self, int64_t dim) {
  check_floating("glu", self);
  EMBER_CHECK(self.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t d = detail::wrap_dim(dim, self.dim(), "glu");
  EMBER_CHECK(self.size(d) % 2 == 0, "Halving dimension must be even, but dimension ", d,
              " is size ", self.size(d));
  std::vector<Tensor> halves = chunk(self, 2, d);
  return halves[0] * sigmoid(halves[1]);
}

Tensor prelu(const Tensor& self, const Tensor& weight) {
  check_floating("prelu", self);
  // The slopes multiply only the non-positive part, so that an infinite input (which takes the
  // other branch) gives them a zero gradient, not inf * 0.
  const Tensor non_positive = where(self > 0, 0.0, self);
  return where(self > 0, self, prelu_slopes(self, weight) * non_positive);
}

Tensor Tensor::prelu(const Tensor& weight) const { return ember::prelu(*this, weight); }

Tensor rrelu(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training) {
  const double slope = rrelu_mean_slope(lower, upper);
  if (!training) return leaky_relu(self, slope);
  return self * rrelu_noise(self, lower, upper);
}

Tensor& rrelu_(Tensor& self, const Scalar& lower, const Scalar& upper, bool training) {
  const double slope = rrelu_mean_slope(lower, upper);
  if (!training) return leaky_relu_(self, slope);
  return self.mul_(rrelu_noise(self, lower, upper));
}

}  // namespace ember
