// Backward formulas of the elementwise ops (see elementwise.h).
#include "autograd/functions/elementwise.h"

#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"

namespace ember::autograd::functions {

Tensor gelu_derivative(const Tensor& x) {
  constexpr double kInvSqrt2 = 0.70710678118654752440, kInvSqrt2Pi = 0.39894228040143267794;
  Tensor cdf = 0.5 * (1 + erf(x * kInvSqrt2));
  return cdf + x * exp(-0.5 * x * x) * kInvSqrt2Pi;
}

Tensor silu_derivative(const Tensor& x) {
  Tensor s = sigmoid(x);
  return s * (1 + x * (1 - s));
}

Tensor mish_derivative(const Tensor& x) {
  Tensor t = tanh(log1p(exp(x)));
  return t + x * sigmoid(x) * (1 - t * t);
}

// 1/6 rounded to float, as PyTorch's kernel has it, so that float64 gradients agree to the bit.
Tensor hardsigmoid_derivative(const Tensor& x) {
  constexpr double kOneSixth = 1.0f / 6.0f;
  return logical_and(x > -3, x < 3).to(x.scalar_type()) * kOneSixth;
}

// Selected, not masked by multiplying: x / 3 + 0.5 is inf beyond the middle for an infinite x.
Tensor hardswish_derivative(const Tensor& x) {
  return where(x < -3, 0.0, where(x <= 3, x / 3 + 0.5, 1.0));
}

Tensor elu_derivative(const Tensor& x, double negative_coef, double positive_coef,
                      double input_scale) {
  // A NaN input takes the exponential's branch: its gradient is NaN, as PyTorch's.
  return where(x > 0, positive_coef, input_scale * negative_coef * exp(x * input_scale));
}

Tensor softplus_derivative(const Tensor& x, double beta, double threshold) {
  Tensor z = exp(x * beta);
  return where(x * beta > threshold, 1.0, z / (z + 1));
}

Tensor maybe_multiply(const Tensor& grad, const Scalar& alpha) {
  const bool one = alpha.isFloatingPoint() ? alpha.toDouble() == 1.0 : alpha.toLong() == 1;
  return one ? grad : grad * alpha;
}

Tensor split_ties(const Tensor& grad, const Tensor& self, const Tensor& other) {
  return where(self == other, grad / 2, grad);
}

const char* pow_grad_fn(const Tensor& self, const Tensor& exponent) {
  if (detail::impl_of(exponent)->wrapped_number) return "PowBackward0";
  return detail::impl_of(self)->wrapped_number ? "PowBackward2" : "PowBackward1";
}

namespace {
// A bool exponent (x ** True) counts as a number: e - 1 is not a bool subtraction.
Tensor numeric_exponent(const Tensor& exponent, ScalarType dtype) {
  return exponent.scalar_type() == kBool ? exponent.to(dtype) : exponent;
}
}  // namespace

Tensor pow_base_gradient(const Tensor& grad, const Tensor& self, const Tensor& exponent) {
  const Tensor e = numeric_exponent(exponent, grad.scalar_type());
  return where(e == 0, 0.0, grad * e * pow(self, e - 1));
}

Tensor pow_exponent_gradient(const Tensor& grad, const Tensor& self, const Tensor& exponent,
                             const Tensor& result) {
  const Tensor e = numeric_exponent(exponent, result.scalar_type());
  // log x in the result's dtype: an integer base (2 ** x) would give a float32 log.
  Tensor log_x =
      log(self.scalar_type() == result.scalar_type() ? self : self.to(result.scalar_type()));
  return where(logical_and(self == 0, e >= 0), 0.0, grad * result * log_x);
}

Grads ClampBackward1::operator()(const Context& c) const {
  const Tensor& self = c.saved(0);
  Tensor inside = ones_like(self, kBool);
  if (min) inside = logical_and(inside, self >= *min);
  if (max) inside = logical_and(inside, self <= *max);
  return Grads{c.grad() * inside.to(c.grad().scalar_type())};
}

Grads WhereBackward0::operator()(const Context& c) const {
  const Tensor& condition = c.saved(0);
  return Grads{c.needs(0) ? where(condition, c.grad(), 0.0) : Tensor(),
               c.needs(1) ? where(condition, 0.0, c.grad()) : Tensor()};
}

}  // namespace ember::autograd::functions
