// Backward formulas of the elementwise ops that take more than an expression: the gradient
// columns of ops/unary_table.h and ops/binary_table.h call these, and clamp and where record
// their nodes from here. Each is built from differentiable ember ops.
#pragma once

#include <optional>

#include "autograd/record.h"
#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember::autograd::functions {

inline constexpr double kTwoOverSqrtPi = 1.12837916709551257390;  // erf'(x) = this e^(-x^2)
inline constexpr double kLn2 = 0.69314718055994530942;
inline constexpr double kLn10 = 2.30258509299404568402;

// d/dx of the exact (erf) gelu: Phi(x) + x phi(x).
Tensor gelu_derivative(const Tensor& x);
// d/dx of x sigmoid(x).
Tensor silu_derivative(const Tensor& x);
// d/dx of x tanh(softplus(x)): tanh(softplus(x)) + x sigmoid(x) (1 - tanh(softplus(x))^2).
Tensor mish_derivative(const Tensor& x);
// 1/6 (rounded to float) strictly inside (-3, 3), else 0.
Tensor hardsigmoid_derivative(const Tensor& x);
// 0 below -3, x / 3 + 1/2 on [-3, 3], 1 above (and for NaN, as PyTorch).
Tensor hardswish_derivative(const Tensor& x);
// alpha scale input_scale e^(x input_scale) at or below 0, else scale (negative_coef is alpha
// scale).
Tensor elu_derivative(const Tensor& x, double negative_coef, double positive_coef,
                      double input_scale);
// sigmoid(beta x) as e^(beta x) / (e^(beta x) + 1), and 1 where beta x passes the threshold.
Tensor softplus_derivative(const Tensor& x, double beta, double threshold);

// grad * alpha, skipping the multiplication when alpha is 1 (PyTorch's maybe_multiply).
Tensor maybe_multiply(const Tensor& grad, const Scalar& alpha);
// maximum's and minimum's gradient where neither operand loses: halved where they tie.
Tensor split_ties(const Tensor& grad, const Tensor& self, const Tensor& other);

// PyTorch's names of pow's node: PowBackward0 for a number exponent, PowBackward2 for a number
// base, PowBackward1 for two tensors.
const char* pow_grad_fn(const Tensor& self, const Tensor& exponent);
// d/dx x^e = e x^(e-1), zero where e == 0 (also at x == 0).
Tensor pow_base_gradient(const Tensor& grad, const Tensor& self, const Tensor& exponent);
// d/de x^e = x^e log x, zero where x == 0 and e >= 0 (the limit, where log x is -inf).
Tensor pow_exponent_gradient(const Tensor& grad, const Tensor& self, const Tensor& exponent,
                             const Tensor& result);

// clamp: the gradient passes where the input was inside [min, max]. Saves the input.
struct ClampBackward1 {
  static constexpr const char* kName = "ClampBackward1";
  std::optional<Scalar> min, max;
  Grads operator()(const Context& c) const;
};

// where(condition, self, other): each input gets the gradient where it was chosen. Saves the
// condition.
struct WhereBackward0 {
  static constexpr const char* kName = "WhereBackward0";
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
