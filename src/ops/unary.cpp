// Unary ops and clamp. Float-valued math (exp, log, sqrt, ...) promotes integer and bool inputs
// to float32 as PyTorch does; the rest keep the input's dtype.
#include "core/check.h"
#include "ember/ops.h"
#include "kernels/stubs.h"
#include "ops/promotion.h"

namespace ember {
namespace {

using kernels::UnaryOp;

enum class Promote { Keep, ToFloat };

Tensor unary(const char* op, UnaryOp kind, const Tensor& x, Promote promote) {
  DType compute = x.dtype();
  if (promote == Promote::ToFloat && is_integral(compute, true)) compute = kFloat32;
  DType output = kind == UnaryOp::LogicalNot ? kBool : compute;
  kernels::TensorIter it = kernels::make_iter({op, compute, output, true, {"self"}}, Tensor(), {x});
  kernels::unary_stub(it.device_type(), it, kind);
  return it.output();
}

void check_not_bool(const char* op, const Tensor& x, const char* advice) {
  EMBER_CHECK_T(TypeError, x.dtype() != kBool, "[", op, "] ", advice);
}

void check_floating(const char* op, const Tensor& x) {
  EMBER_CHECK_T(TypeError, x.is_floating_point(), "[", op,
                "] expected a floating-point tensor, got dtype ", x.dtype(),
                "; convert it first with .to(ember::kFloat32)");
}

}  // namespace

Tensor neg(const Tensor& x) {
  check_not_bool("neg", x,
                 "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                 "to invert a mask, use the `~` or `logical_not()` operator instead.");
  return unary("neg", UnaryOp::Neg, x, Promote::Keep);
}
Tensor abs(const Tensor& x) { return unary("abs", UnaryOp::Abs, x, Promote::Keep); }
Tensor sign(const Tensor& x) { return unary("sign", UnaryOp::Sign, x, Promote::Keep); }
Tensor exp(const Tensor& x) { return unary("exp", UnaryOp::Exp, x, Promote::ToFloat); }
Tensor log(const Tensor& x) { return unary("log", UnaryOp::Log, x, Promote::ToFloat); }
Tensor log1p(const Tensor& x) { return unary("log1p", UnaryOp::Log1p, x, Promote::ToFloat); }
Tensor expm1(const Tensor& x) { return unary("expm1", UnaryOp::Expm1, x, Promote::ToFloat); }
Tensor sqrt(const Tensor& x) { return unary("sqrt", UnaryOp::Sqrt, x, Promote::ToFloat); }
Tensor rsqrt(const Tensor& x) { return unary("rsqrt", UnaryOp::Rsqrt, x, Promote::ToFloat); }
Tensor sin(const Tensor& x) { return unary("sin", UnaryOp::Sin, x, Promote::ToFloat); }
Tensor cos(const Tensor& x) { return unary("cos", UnaryOp::Cos, x, Promote::ToFloat); }
Tensor tan(const Tensor& x) { return unary("tan", UnaryOp::Tan, x, Promote::ToFloat); }
Tensor tanh(const Tensor& x) { return unary("tanh", UnaryOp::Tanh, x, Promote::ToFloat); }
Tensor sigmoid(const Tensor& x) { return unary("sigmoid", UnaryOp::Sigmoid, x, Promote::ToFloat); }
Tensor relu(const Tensor& x) {
  check_not_bool("relu", x, "relu is not implemented for bool tensors");
  return unary("relu", UnaryOp::Relu, x, Promote::Keep);
}
Tensor gelu(const Tensor& x) {
  check_floating("gelu", x);
  return unary("gelu", UnaryOp::Gelu, x, Promote::Keep);
}
Tensor silu(const Tensor& x) {
  check_floating("silu", x);
  return unary("silu", UnaryOp::Silu, x, Promote::Keep);
}
Tensor floor(const Tensor& x) { return unary("floor", UnaryOp::Floor, x, Promote::Keep); }
Tensor ceil(const Tensor& x) { return unary("ceil", UnaryOp::Ceil, x, Promote::Keep); }
Tensor round(const Tensor& x) { return unary("round", UnaryOp::Round, x, Promote::Keep); }
Tensor reciprocal(const Tensor& x) {
  return unary("reciprocal", UnaryOp::Reciprocal, x, Promote::ToFloat);
}
Tensor square(const Tensor& x) {
  // torch.square(bool) is pow(x, 2), which promotes bool to int64.
  return unary("square", UnaryOp::Square, x.dtype() == kBool ? x.to(kInt64) : x, Promote::Keep);
}
Tensor logical_not(const Tensor& x) {
  return unary("logical_not", UnaryOp::LogicalNot, x, Promote::Keep);
}
Tensor operator-(const Tensor& a) { return neg(a); }
Tensor operator!(const Tensor& a) { return logical_not(a); }

Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max) {
  EMBER_CHECK_T(ValueError, min || max,
                "[clamp] At least one of 'min' or 'max' must not be None");
  EMBER_CHECK_T(TypeError, x.dtype() != kBool, "[clamp] is not implemented for bool tensors");
  Tensor lo = min ? ops::wrap_scalar(*min) : Tensor();
  Tensor hi = max ? ops::wrap_scalar(*max) : Tensor();
  DType compute = ops::result_type({&x, &lo, &hi});
  kernels::TensorIter it =
      kernels::make_iter({"clamp", compute, compute, true, {"self"}}, Tensor(), {x});
  kernels::clamp_stub(it.device_type(), it, min, max);
  return it.output();
}

}  // namespace ember
