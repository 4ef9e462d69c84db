// Unary ops and clamp. Float-valued math (exp, log, sqrt, ...) promotes integer and bool inputs
// to float32 as PyTorch does; the rest keep the input's dtype.
#include <cmath>

#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "kernels/stubs.h"
#include "ops/promotion.h"

namespace ember {
namespace {

using kernels::UnaryOp;

enum class Promote { Keep, ToFloat };

using autograd::Context;
using autograd::Grads;

// d out / d x for each differentiable unary op, from the input x and the output y (the factor
// the incoming gradient is multiplied by). Piecewise-constant ops have a zero derivative.
Tensor derivative(UnaryOp kind, const Tensor& x, const Tensor& y) {
  switch (kind) {
    case UnaryOp::Neg: return full_like(y, -1);
    case UnaryOp::Abs: return sign(x);
    case UnaryOp::Exp: return y;
    case UnaryOp::Log: return reciprocal(x);
    case UnaryOp::Log1p: return reciprocal(x + 1);
    case UnaryOp::Expm1: return y + 1;
    case UnaryOp::Sqrt: return 0.5 / y;
    case UnaryOp::Rsqrt: return -0.5 * y * y * y;
    case UnaryOp::Sin: return cos(x);
    case UnaryOp::Cos: return -sin(x);
    case UnaryOp::Tan: return 1 + y * y;
    case UnaryOp::Tanh: return 1 - y * y;
    case UnaryOp::Sigmoid: return y * (1 - y);
    case UnaryOp::Relu: return logical_not(y <= 0).to(y.dtype());  // NaN passes, as in PyTorch
    case UnaryOp::Gelu: {  // Phi(x) + x phi(x), exact form
      constexpr double kInvSqrt2 = 0.70710678118654752440, kInvSqrt2Pi = 0.39894228040143267794;
      Tensor cdf = 0.5 * (1 + erf(x * kInvSqrt2));
      return cdf + x * exp(-0.5 * x * x) * kInvSqrt2Pi;
    }
    case UnaryOp::Silu: {
      Tensor s = sigmoid(x);
      return s * (1 + x * (1 - s));
    }
    case UnaryOp::Erf: return 1.12837916709551257390 * exp(-x * x);  // 2/sqrt(pi) e^(-x^2)
    case UnaryOp::Reciprocal: return -y * y;
    case UnaryOp::Square: return 2 * x;
    default: return zeros_like(y);  // sign, floor, ceil, round
  }
}

const char* backward_name(UnaryOp kind) {
  switch (kind) {
    case UnaryOp::Neg: return "NegBackward0";
    case UnaryOp::Abs: return "AbsBackward0";
    case UnaryOp::Sign: return "SignBackward0";
    case UnaryOp::Exp: return "ExpBackward0";
    case UnaryOp::Log: return "LogBackward0";
    case UnaryOp::Log1p: return "Log1PBackward0";
    case UnaryOp::Expm1: return "Expm1Backward0";
    case UnaryOp::Sqrt: return "SqrtBackward0";
    case UnaryOp::Rsqrt: return "RsqrtBackward0";
    case UnaryOp::Sin: return "SinBackward0";
    case UnaryOp::Cos: return "CosBackward0";
    case UnaryOp::Tan: return "TanBackward0";
    case UnaryOp::Tanh: return "TanhBackward0";
    case UnaryOp::Sigmoid: return "SigmoidBackward0";
    case UnaryOp::Relu: return "ReluBackward0";
    case UnaryOp::Gelu: return "GeluBackward0";
    case UnaryOp::Silu: return "SiluBackward0";
    case UnaryOp::Erf: return "ErfBackward0";
    case UnaryOp::Floor: return "FloorBackward0";
    case UnaryOp::Ceil: return "CeilBackward0";
    case UnaryOp::Round: return "RoundBackward0";
    case UnaryOp::Reciprocal: return "ReciprocalBackward0";
    case UnaryOp::Square: return "PowBackward0";  // torch.square is pow(x, 2)
    default: return nullptr;  // not differentiable (logical_not)
  }
}

Tensor unary(const char* op, UnaryOp kind, const Tensor& x, Promote promote) {
  DType compute = x.dtype();
  if (promote == Promote::ToFloat && is_integral(compute, true)) compute = kFloat32;
  DType output = kind == UnaryOp::LogicalNot ? kBool : compute;
  kernels::TensorIter it = kernels::make_iter({op, compute, output, true, {"self"}}, Tensor(), {x});
  kernels::unary_stub(it.device_type(), it, kind);
  Tensor out = it.output();
  if (autograd::needs_grad(x) && backward_name(kind))
    autograd::record(backward_name(kind), {out}, {x}, {x, out}, [kind](const Context& c) {
      return Grads{c.grad() * derivative(kind, c.saved(0), c.saved(1))};
    });
  return out;
}

constexpr const char* kNoBoolKernel = "is not implemented for Bool tensors";

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
// abs, floor, ceil and round have no bool kernel in PyTorch (floor and friends copy integers,
// but bool is not one of them).
Tensor abs(const Tensor& x) {
  check_not_bool("abs", x, kNoBoolKernel);
  return unary("abs", UnaryOp::Abs, x, Promote::Keep);
}
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
Tensor erf(const Tensor& x) { return unary("erf", UnaryOp::Erf, x, Promote::ToFloat); }
Tensor floor(const Tensor& x) {
  check_not_bool("floor", x, kNoBoolKernel);
  return unary("floor", UnaryOp::Floor, x, Promote::Keep);
}
Tensor ceil(const Tensor& x) {
  check_not_bool("ceil", x, kNoBoolKernel);
  return unary("ceil", UnaryOp::Ceil, x, Promote::Keep);
}
Tensor round(const Tensor& x) {
  check_not_bool("round", x, kNoBoolKernel);
  return unary("round", UnaryOp::Round, x, Promote::Keep);
}
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
  Tensor lo = min ? ops::wrap_scalar(*min) : Tensor();
  Tensor hi = max ? ops::wrap_scalar(*max) : Tensor();
  DType compute = ops::result_type({&x, &lo, &hi});
  // A bool tensor is clamped once the bounds promote it (to int64 or float32), as in PyTorch.
  EMBER_CHECK_T(TypeError, compute != kBool, "[clamp] is not implemented for Bool tensors");
  if (min) ops::check_fits("clamp", *min, compute);
  if (max) ops::check_fits("clamp", *max, compute);
  kernels::TensorIter it =
      kernels::make_iter({"clamp", compute, compute, true, {"self"}}, Tensor(), {x});
  kernels::clamp_stub(it.device_type(), it, min, max);
  Tensor out = it.output();
  if (autograd::needs_grad(x))  // passes where x is inside [min, max]
    autograd::record("ClampBackward1", {out}, {x}, {x}, [min, max](const Context& c) {
      const Tensor& v = c.saved(0);
      Tensor inside = ones_like(v, kBool);
      if (min) inside = logical_and(inside, v >= *min);
      if (max) inside = logical_and(inside, v <= *max);
      return Grads{c.grad() * inside.to(c.grad().dtype())};
    });
  return out;
}

}  // namespace ember
