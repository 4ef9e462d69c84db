// Elementwise ops: every form of the unary and binary ops of the tables (from the names of
// ember/elementwise_names.h, as LibTorch declares them), clamp, where, whole-tensor comparisons
// and the operators. Binary ops broadcast and promote as PyTorch does.
#pragma once

#include <optional>
#include <vector>

#include "ember/elementwise_names.h"
#include "ember/macros.h"
#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

// ---- unary: exp(x), exp_(x), exp_out(out, x)
#define EMBER_DECLARE_UNARY(name)            \
  EMBER_API Tensor name(const Tensor& self); \
  EMBER_API Tensor& name##_(Tensor& self);   \
  EMBER_API Tensor& name##_out(Tensor& out, const Tensor& self);
EMBER_PUBLIC_UNARY_OPS(EMBER_DECLARE_UNARY)
#undef EMBER_DECLARE_UNARY
// ---- unary with parameters: leaky_relu(x, 0.2), leaky_relu_(x, 0.2), leaky_relu_out(out, x, 0.2)
#define EMBER_DECLARE_PARAMETRIC_UNARY(name, ...)         \
  EMBER_API Tensor name(const Tensor& self, __VA_ARGS__); \
  EMBER_API Tensor& name##_(Tensor& self, __VA_ARGS__);   \
  EMBER_API Tensor& name##_out(Tensor& out, const Tensor& self, __VA_ARGS__);
EMBER_PUBLIC_PARAMETRIC_UNARY_OPS(EMBER_DECLARE_PARAMETRIC_UNARY)
#undef EMBER_DECLARE_PARAMETRIC_UNARY
// LibTorch's activations made of those: selu and celu are elu with fixed constants, relu6 is
// hardtanh(x, 0, 6) (and records HardtanhBackward0, as LibTorch's).
EMBER_API Tensor selu(const Tensor& self);
EMBER_API Tensor& selu_(Tensor& self);
EMBER_API Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
EMBER_API Tensor& celu_(Tensor& self, const Scalar& alpha = 1.0);
EMBER_API Tensor relu6(const Tensor& self);
EMBER_API Tensor& relu6_(Tensor& self);

// ---- binary: mul(x, y), mul_out(out, x, y), for y a tensor or, where listed, a number (a
// 0-dim "wrapped number" in type promotion: int_tensor * 2.5 is float)
#define EMBER_DECLARE_BINARY(name, Other, ALPHA)                       \
  EMBER_API Tensor name(const Tensor& self, const Other& other ALPHA); \
  EMBER_API Tensor& name##_out(Tensor& out, const Tensor& self, const Other& other ALPHA);
#define EMBER_NO_ALPHA
#define EMBER_ALPHA , const Scalar& alpha = 1
#define EMBER_DECLARE_BINARY_TENSOR(name) EMBER_DECLARE_BINARY(name, Tensor, EMBER_NO_ALPHA)
#define EMBER_DECLARE_BINARY_SCALAR(name) \
  EMBER_DECLARE_BINARY_TENSOR(name) EMBER_DECLARE_BINARY(name, Scalar, EMBER_NO_ALPHA)
#define EMBER_DECLARE_BINARY_ALPHA(name) \
  EMBER_DECLARE_BINARY(name, Tensor, EMBER_ALPHA) EMBER_DECLARE_BINARY(name, Scalar, EMBER_ALPHA)
EMBER_PUBLIC_BINARY_ALPHA_OPS(EMBER_DECLARE_BINARY_ALPHA)
EMBER_PUBLIC_BINARY_SCALAR_OPS(EMBER_DECLARE_BINARY_SCALAR)
EMBER_PUBLIC_BINARY_TENSOR_OPS(EMBER_DECLARE_BINARY_TENSOR)
#undef EMBER_DECLARE_BINARY_ALPHA
#undef EMBER_DECLARE_BINARY_SCALAR
#undef EMBER_DECLARE_BINARY_TENSOR
#undef EMBER_ALPHA
#undef EMBER_NO_ALPHA
#undef EMBER_DECLARE_BINARY
// pow with a number exponent (an integer power must not be negative) or base.
EMBER_API Tensor pow(const Tensor& self, const Scalar& exponent);
EMBER_API Tensor pow(const Scalar& self, const Tensor& exponent);
EMBER_API Tensor& pow_out(Tensor& out, const Tensor& self, const Scalar& exponent);
EMBER_API Tensor& pow_out(Tensor& out, const Scalar& self, const Tensor& exponent);

// ---- selection and whole-tensor comparisons
// a where `condition` holds, b elsewhere; numbers take part in type promotion as wrapped numbers
// (where(mask, 1, 0) is int64, where(mask, 0.5, int_tensor) the default float).
EMBER_API Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b);
EMBER_API Tensor where(const Tensor& condition, const Scalar& a, const Tensor& b);
EMBER_API Tensor where(const Tensor& condition, const Tensor& a, const Scalar& b);
EMBER_API Tensor where(const Tensor& condition, const Scalar& a, const Scalar& b);
// The indices of the nonzero elements of `condition`, one int64 tensor per dim (nonzero as a
// tuple).
EMBER_API std::vector<Tensor> where(const Tensor& condition);
// True when both have the same shape and elements (torch.equal).
EMBER_API bool equal(const Tensor& a, const Tensor& b);
// |a - b| <= atol + rtol * |b| everywhere (torch.allclose).
EMBER_API bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08,
                        bool equal_nan = false);
// Elementwise |a - b| <= atol + rtol * |b|, equal values (infinities) included, NaNs equal only
// with equal_nan (torch.isclose); a bool tensor of the broadcast shape.
EMBER_API Tensor isclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08,
                         bool equal_nan = false);

// ---- clamp: to [min, max], either bound optional (at least one given)
EMBER_API Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
                       const std::optional<Scalar>& max = std::nullopt);
// Tensor bounds broadcast with self and promote, as maximum/minimum (which they are).
EMBER_API Tensor clamp(const Tensor& self, const std::optional<Tensor>& min = {},
                       const std::optional<Tensor>& max = {});
EMBER_API Tensor clamp_min(const Tensor& self, const Scalar& min);
EMBER_API Tensor clamp_min(const Tensor& self, const Tensor& min);
EMBER_API Tensor clamp_max(const Tensor& self, const Scalar& max);
EMBER_API Tensor clamp_max(const Tensor& self, const Tensor& max);

// ---- the dtype a binary op on these operands computes in (PyTorch's promotion rule)
EMBER_API ScalarType result_type(const Tensor& tensor, const Tensor& other);
EMBER_API ScalarType result_type(const Tensor& tensor, const Scalar& other);
EMBER_API ScalarType result_type(const Scalar& scalar, const Tensor& tensor);
EMBER_API ScalarType result_type(const Scalar& scalar1, const Scalar& scalar2);

// ---- predicates on a tensor's dtype, as LibTorch's free functions
inline bool is_floating_point(const Tensor& self) { return self.is_floating_point(); }
inline bool is_signed(const Tensor& self) { return self.is_signed(); }
inline bool is_complex(const Tensor&) { return false; }  // ember has no complex dtypes

// ---- operators, as LibTorch's (ATen/TensorOperators.h): x OP y for tensors and numbers on
// either side; a number on the left of -, /, %, << and >> is first filled into a tensor of the
// right operand's dtype, so 2.5 - int_tensor is an int tensor. << and >> shift (an ember
// addition: LibTorch spells them bitwise_left_shift and bitwise_right_shift).
#define EMBER_DECLARE_OPERATOR(op)                                \
  EMBER_API Tensor operator op(const Tensor& x, const Tensor& y); \
  EMBER_API Tensor operator op(const Tensor& x, const Scalar& y); \
  EMBER_API Tensor operator op(const Scalar& x, const Tensor& y);
EMBER_DECLARE_OPERATOR(+)
EMBER_DECLARE_OPERATOR(-)
EMBER_DECLARE_OPERATOR(*)
EMBER_DECLARE_OPERATOR(/)
EMBER_DECLARE_OPERATOR(%)
EMBER_DECLARE_OPERATOR(&)
EMBER_DECLARE_OPERATOR(|)
EMBER_DECLARE_OPERATOR(^)
EMBER_DECLARE_OPERATOR(<<)
EMBER_DECLARE_OPERATOR(>>)
EMBER_DECLARE_OPERATOR(<)
EMBER_DECLARE_OPERATOR(<=)
EMBER_DECLARE_OPERATOR(>)
EMBER_DECLARE_OPERATOR(>=)
EMBER_DECLARE_OPERATOR(==)
EMBER_DECLARE_OPERATOR(!=)
#undef EMBER_DECLARE_OPERATOR

}  // namespace ember
