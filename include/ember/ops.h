// Elementwise ops: binary with broadcasting and PyTorch's type promotion, unary, comparisons.
#pragma once

#include <optional>

#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

// ---- binary arithmetic (tensor-tensor; scalars convert to 0-dim "wrapped numbers")
EMBER_API Tensor add(const Tensor& a, const Tensor& b, Scalar alpha = 1);
EMBER_API Tensor add(const Tensor& a, Scalar b, Scalar alpha = 1);
EMBER_API Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha = 1);
EMBER_API Tensor sub(const Tensor& a, Scalar b, Scalar alpha = 1);
EMBER_API Tensor mul(const Tensor& a, const Tensor& b);
EMBER_API Tensor mul(const Tensor& a, Scalar b);
EMBER_API Tensor div(const Tensor& a, const Tensor& b);  // true division: ints give float32
EMBER_API Tensor div(const Tensor& a, Scalar b);
EMBER_API Tensor floor_divide(const Tensor& a, const Tensor& b);
EMBER_API Tensor floor_divide(const Tensor& a, Scalar b);
EMBER_API Tensor remainder(const Tensor& a, const Tensor& b);  // sign of the divisor (Python %)
EMBER_API Tensor remainder(const Tensor& a, Scalar b);
EMBER_API Tensor pow(const Tensor& a, const Tensor& b);
EMBER_API Tensor pow(const Tensor& a, Scalar b);
EMBER_API Tensor pow(Scalar a, const Tensor& b);
EMBER_API Tensor maximum(const Tensor& a, const Tensor& b);
EMBER_API Tensor minimum(const Tensor& a, const Tensor& b);

// ---- comparisons and logic (bool results)
EMBER_API Tensor eq(const Tensor& a, const Tensor& b);
EMBER_API Tensor eq(const Tensor& a, Scalar b);
EMBER_API Tensor ne(const Tensor& a, const Tensor& b);
EMBER_API Tensor ne(const Tensor& a, Scalar b);
EMBER_API Tensor lt(const Tensor& a, const Tensor& b);
EMBER_API Tensor lt(const Tensor& a, Scalar b);
EMBER_API Tensor le(const Tensor& a, const Tensor& b);
EMBER_API Tensor le(const Tensor& a, Scalar b);
EMBER_API Tensor gt(const Tensor& a, const Tensor& b);
EMBER_API Tensor gt(const Tensor& a, Scalar b);
EMBER_API Tensor ge(const Tensor& a, const Tensor& b);
EMBER_API Tensor ge(const Tensor& a, Scalar b);
EMBER_API Tensor logical_and(const Tensor& a, const Tensor& b);
EMBER_API Tensor logical_or(const Tensor& a, const Tensor& b);
EMBER_API Tensor logical_xor(const Tensor& a, const Tensor& b);
EMBER_API Tensor logical_not(const Tensor& a);
EMBER_API Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b);
EMBER_API Tensor where(const Tensor& condition, Scalar a, const Tensor& b);
EMBER_API Tensor where(const Tensor& condition, const Tensor& a, Scalar b);
// True when both have the same shape and elements (torch.equal).
EMBER_API bool equal(const Tensor& a, const Tensor& b);
// |a - b| <= atol + rtol * |b| everywhere (torch.allclose).
EMBER_API bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
                        bool equal_nan = false);

// ---- into a preallocated output of the broadcast shape (out= in PyTorch)
EMBER_API Tensor& add_out(Tensor& out, const Tensor& a, const Tensor& b, Scalar alpha = 1);
EMBER_API Tensor& mul_out(Tensor& out, const Tensor& a, const Tensor& b);

// ---- in place (the result must be castable to the tensor's own dtype)
EMBER_API Tensor& add_(Tensor& self, const Tensor& other, Scalar alpha = 1);
EMBER_API Tensor& sub_(Tensor& self, const Tensor& other, Scalar alpha = 1);
EMBER_API Tensor& mul_(Tensor& self, const Tensor& other);
EMBER_API Tensor& div_(Tensor& self, const Tensor& other);

// ---- unary
EMBER_API Tensor neg(const Tensor& x);
EMBER_API Tensor abs(const Tensor& x);
EMBER_API Tensor sign(const Tensor& x);
EMBER_API Tensor exp(const Tensor& x);
EMBER_API Tensor log(const Tensor& x);
EMBER_API Tensor log1p(const Tensor& x);
EMBER_API Tensor expm1(const Tensor& x);
EMBER_API Tensor sqrt(const Tensor& x);
EMBER_API Tensor rsqrt(const Tensor& x);
EMBER_API Tensor sin(const Tensor& x);
EMBER_API Tensor cos(const Tensor& x);
EMBER_API Tensor tan(const Tensor& x);
EMBER_API Tensor tanh(const Tensor& x);
EMBER_API Tensor sigmoid(const Tensor& x);
EMBER_API Tensor relu(const Tensor& x);
EMBER_API Tensor gelu(const Tensor& x);  // exact (erf) form, PyTorch's default
EMBER_API Tensor silu(const Tensor& x);
EMBER_API Tensor erf(const Tensor& x);
EMBER_API Tensor floor(const Tensor& x);
EMBER_API Tensor ceil(const Tensor& x);
EMBER_API Tensor round(const Tensor& x);  // half to even
EMBER_API Tensor reciprocal(const Tensor& x);
EMBER_API Tensor square(const Tensor& x);
EMBER_API Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max);

// ---- operators
EMBER_API Tensor operator+(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator+(const Tensor& a, Scalar b);
EMBER_API Tensor operator+(Scalar a, const Tensor& b);
EMBER_API Tensor operator-(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator-(const Tensor& a, Scalar b);
EMBER_API Tensor operator-(Scalar a, const Tensor& b);
EMBER_API Tensor operator*(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator*(const Tensor& a, Scalar b);
EMBER_API Tensor operator*(Scalar a, const Tensor& b);
EMBER_API Tensor operator/(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator/(const Tensor& a, Scalar b);
EMBER_API Tensor operator/(Scalar a, const Tensor& b);
EMBER_API Tensor operator%(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator%(const Tensor& a, Scalar b);
EMBER_API Tensor operator-(const Tensor& a);
EMBER_API Tensor operator==(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator==(const Tensor& a, Scalar b);
EMBER_API Tensor operator!=(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator!=(const Tensor& a, Scalar b);
EMBER_API Tensor operator<(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator<(const Tensor& a, Scalar b);
EMBER_API Tensor operator<=(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator<=(const Tensor& a, Scalar b);
EMBER_API Tensor operator>(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator>(const Tensor& a, Scalar b);
EMBER_API Tensor operator>=(const Tensor& a, const Tensor& b);
EMBER_API Tensor operator>=(const Tensor& a, Scalar b);
EMBER_API Tensor operator&&(const Tensor& a, const Tensor& b);  // logical_and
EMBER_API Tensor operator||(const Tensor& a, const Tensor& b);  // logical_or
EMBER_API Tensor operator!(const Tensor& a);                    // logical_not
EMBER_API Tensor& operator+=(Tensor& a, const Tensor& b);
EMBER_API Tensor& operator+=(Tensor& a, Scalar b);
EMBER_API Tensor& operator-=(Tensor& a, const Tensor& b);
EMBER_API Tensor& operator-=(Tensor& a, Scalar b);
EMBER_API Tensor& operator*=(Tensor& a, const Tensor& b);
EMBER_API Tensor& operator*=(Tensor& a, Scalar b);
EMBER_API Tensor& operator/=(Tensor& a, const Tensor& b);
EMBER_API Tensor& operator/=(Tensor& a, Scalar b);

}  // namespace ember
