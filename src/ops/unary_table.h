// The unary ops, one row each. Everything that tells two unary ops apart is stated here once:
// the public name, the element math, the dtype rule, PyTorch's grad_fn name, what backward saves
// and the gradient. The element functors (kernels/functors.h), the kernels of every backend
// (kernels/elementwise_kernels.h), the public functions and their autograd (ops/unary.cpp) are
// generated from these rows, so adding a unary op is one row here and its name in
// include/ember/elementwise_names.h, which declares it.
// Only macros: nvcc reads this file too, and sees just the columns the kernels expand.
#pragma once

// Note [Op tables]
// A row is X(Op, name, dtypes, math, grad_fn, saves, gradient):
//   Op        the enumerator of UnaryOp and the name of the element functor kernels::Op<T>
//   name      the public name (ember/elementwise_names.h lists it: ember::name, name_, name_out
//             and the methods), and the op's name in messages
//   dtypes    a UnaryDtypes rule (below): which dtypes the op takes and what it returns
//   math      the element math: an expression in `x`, of type T (float for the 16-bit floats,
//             PyTorch's opmath type), and for a parametric row (below) its parameters `a`, `b`,
//             `c`, of type T; helpers with type-dependent code live in kernels/functors.h
//   grad_fn   PyTorch's backward node name, or nullptr for an op that is not differentiable
//   saves     what the gradient reads besides `grad`: Nothing, Self (the input) or Result
//   gradient  the gradient of the input: an ember expression in `grad` and what `saves` names
//             (and `a`, `b`, `c`, as doubles)
// The gradient is itself built from differentiable ops, and only what `saves` names is in its
// scope: a gradient that reads anything else does not compile, and backward keeps alive exactly
// what it reads (PyTorch's rule: exp and relu save their result, sin and log their input).
// clang-format off
#define EMBER_UNARY_OPS(X)                                                                       \
  X(Neg,        neg,         Negation,   wrap_neg(x),                                            \
    "NegBackward0",        Nothing, -grad)                                                       \
  X(Abs,        abs,         NoBool,     abs_of(x),                                              \
    "AbsBackward0",        Self,    grad * sign(self))                                           \
  X(Sign,       sign,        Any,        sign_of(x),                                             \
    "SignBackward0",       Nothing, zeros_like(grad))                                            \
  X(Exp,        exp,         Float,      std::exp(x),                                            \
    "ExpBackward0",        Result,  grad * result)                                               \
  X(Exp2,       exp2,        Float,      std::exp2(x),                                           \
    "Exp2Backward0",       Result,  grad * result * kLn2)                                        \
  X(Log,        log,         Float,      std::log(x),                                            \
    "LogBackward0",        Self,    grad * reciprocal(self))                                     \
  X(Log2,       log2,        Float,      std::log2(x),                                           \
    "Log2Backward0",       Self,    grad / (self * kLn2))                                        \
  X(Log10,      log10,       Float,      std::log10(x),                                          \
    "Log10Backward0",      Self,    grad / (self * kLn10))                                       \
  X(Log1p,      log1p,       Float,      std::log1p(x),                                          \
    "Log1PBackward0",      Self,    grad * reciprocal(self + 1))                                 \
  X(Expm1,      expm1,       Float,      std::expm1(x),                                          \
    "Expm1Backward0",      Result,  grad * (result + 1))                                         \
  X(Sqrt,       sqrt,        Float,      std::sqrt(x),                                           \
    "SqrtBackward0",       Result,  grad * (0.5 / result))                                       \
  X(Rsqrt,      rsqrt,       Float,      T(1) / std::sqrt(x),                                    \
    "RsqrtBackward0",      Result,  grad * (-0.5 * result * result * result))                    \
  X(Sin,        sin,         Float,      std::sin(x),                                            \
    "SinBackward0",        Self,    grad * cos(self))                                            \
  X(Cos,        cos,         Float,      std::cos(x),                                            \
    "CosBackward0",        Self,    grad * -sin(self))                                           \
  X(Tan,        tan,         Float,      std::tan(x),                                            \
    "TanBackward0",        Result,  grad * (1 + result * result))                                \
  X(Asin,       asin,        Float,      std::asin(x),                                           \
    "AsinBackward0",       Self,    grad * rsqrt(1 - self * self))                               \
  X(Acos,       acos,        Float,      std::acos(x),                                           \
    "AcosBackward0",       Self,    grad * -rsqrt(1 - self * self))                              \
  X(Atan,       atan,        Float,      std::atan(x),                                           \
    "AtanBackward0",       Self,    grad / (1 + self * self))                                    \
  X(Sinh,       sinh,        Float,      std::sinh(x),                                           \
    "SinhBackward0",       Self,    grad * cosh(self))                                           \
  X(Cosh,       cosh,        Float,      std::cosh(x),                                           \
    "CoshBackward0",       Self,    grad * sinh(self))                                           \
  X(Tanh,       tanh,        Float,      std::tanh(x),                                           \
    "TanhBackward0",       Result,  grad * (1 - result * result))                                \
  X(Sigmoid,    sigmoid,     Float,      T(1) / (T(1) + std::exp(-x)),                           \
    "SigmoidBackward0",    Result,  grad * (result * (1 - result)))                              \
  X(Relu,       relu,        NoBool,     x < T(0) ? T(0) : x, /* NaN stays NaN */                \
    /* as threshold_backward: 0 where result <= 0; a NaN result passes grad */                   \
    "ReluBackward0",       Result,  where(result <= 0, 0.0, grad))                               \
  X(Gelu,       gelu,        FloatOnly,  T(0.5) * x * (T(1) + std::erf(x * T(kInvSqrt2))),       \
    "GeluBackward0",       Self,    grad * gelu_derivative(self))                                \
  X(Silu,       silu,        FloatOnly,  x / (T(1) + std::exp(-x)),                              \
    "SiluBackward0",       Self,    grad * silu_derivative(self))                                \
  X(Mish,       mish,        FloatOnly,  x * std::tanh(std::log1p(std::exp(x))),                 \
    "MishBackward0",       Self,    grad * mish_derivative(self))                                \
  X(Hardsigmoid, hardsigmoid, FloatOnly, hard_ramp(x) / T(6),                                    \
    "HardsigmoidBackward0", Self,   grad * hardsigmoid_derivative(self))                         \
  X(Hardswish,  hardswish,   FloatOnly,  x * hard_ramp(x) / T(6),                                \
    "HardswishBackward0",  Self,    grad * hardswish_derivative(self))                           \
  X(LogSigmoid, log_sigmoid, FloatOnly,  log_sigmoid_of(x),                                      \
    "LogSigmoidBackward0", Self,    grad * sigmoid(-self))                                       \
  X(Erf,        erf,         Float,      std::erf(x),                                            \
    "ErfBackward0",        Self,    grad * (kTwoOverSqrtPi * exp(-self * self)))                 \
  X(Floor,      floor,       NoBool,     floor_of(x),                                            \
    "FloorBackward0",      Nothing, zeros_like(grad))                                            \
  X(Ceil,       ceil,        NoBool,     ceil_of(x),                                             \
    "CeilBackward0",       Nothing, zeros_like(grad))                                            \
  X(Round,      round,       NoBool,     round_half_even(x),                                     \
    "RoundBackward0",      Nothing, zeros_like(grad))                                            \
  X(Trunc,      trunc,       NoBool,     trunc_of(x),                                            \
    "TruncBackward0",      Nothing, zeros_like(grad))                                            \
  X(Frac,       frac,        FloatOnly,  x - std::trunc(x),                                      \
    "FracBackward0",       Nothing, grad)                                                        \
  X(Reciprocal, reciprocal,  Float,      T(1) / x,                                               \
    "ReciprocalBackward0", Result,  grad * -(result * result))                                   \
  /* torch.square is pow(x, 2): its node is PowBackward0 */                                      \
  X(Square,     square,      BoolToLong, wrap_mul(x, x),                                         \
    "PowBackward0",        Self,    grad * (2 * self))                                           \
  X(LogicalNot, logical_not, ToBool,     x == T(0),                                              \
    nullptr,               Nothing, Tensor())                                                    \
  X(BitwiseNot, bitwise_not, Bitwise,    bitwise_not_of(x),                                      \
    nullptr,               Nothing, Tensor())                                                    \
  X(IsNan,      isnan,       ToBool,     x != x,                                                 \
    nullptr,               Nothing, Tensor())                                                    \
  X(IsInf,      isinf,       ToBool,     is_inf_of(x),                                           \
    nullptr,               Nothing, Tensor())                                                    \
  X(IsFinite,   isfinite,    ToBool,     is_finite_of(x),                                        \
    nullptr,               Nothing, Tensor())

// Note [Parametric unary ops]
// The activations with LibTorch Scalar options (leaky_relu's negative_slope, elu's alpha, ...)
// are rows of the same form whose math and gradient also read up to three parameters `a`, `b`,
// `c`. Their functors carry the three (kernels/functors.h) and every unary kernel takes them, so
// these rows share the one kernel mechanism: the dtype rules, the dispatch, the CPU and CUDA
// loops and the autograd are the rows above's (which get empty functors and pass nothing). A
// second table would have repeated all of that for seven rows. The rows are listed apart only
// because their public forms take the parameters under LibTorch's names and defaults, which a
// row cannot state: those are declared from EMBER_PUBLIC_PARAMETRIC_UNARY_OPS
// (ember/elementwise_names.h), and each row says below what a, b and c are.
#define EMBER_PARAMETRIC_UNARY_OPS(X)                                                            \
  /* a = negative_slope */                                                                       \
  X(LeakyRelu,  leaky_relu,  FloatOnly,  x > T(0) ? x : x * a,                                   \
    "LeakyReluBackward0",  Self,    where(self > 0, grad, grad * a))                             \
  /* a = alpha, b = scale, c = input_scale */                                                    \
  X(Elu,        elu,         FloatOnly,  elu_of(x, a * b, b, c),                                 \
    "EluBackward0",        Self,    grad * elu_derivative(self, a * b, b, c))                    \
  /* a = min_val, b = max_val: clamp(x, a, b), as LibTorch computes it */                        \
  X(Hardtanh,   hardtanh,    NoBool,     clamp_of(x, a, b),                                      \
    "HardtanhBackward0",   Self,    where(logical_or(self <= a, self >= b), 0.0, grad))          \
  /* a = beta, b = threshold */                                                                  \
  X(Softplus,   softplus,    FloatOnly,  softplus_of(x, a, b),                                   \
    "SoftplusBackward0",   Self,    grad * softplus_derivative(self, a, b))                      \
  /* a = threshold, b = value */                                                                 \
  X(Threshold,  threshold,   NoBool,     x <= a ? b : x,                                         \
    "ThresholdBackward0",  Self,    where(self <= a, 0.0, grad))                                 \
  /* a = lambd */                                                                                \
  X(Softshrink, softshrink,  FloatOnly,  softshrink_of(x, a),                                    \
    "SoftshrinkBackward0", Self,    where(logical_and(self >= -a, self <= a), 0.0, grad))        \
  /* a = lambd */                                                                                \
  X(Hardshrink, hardshrink,  FloatOnly,  x >= -a && x <= a ? T(0) : x,                           \
    "HardshrinkBackward0", Self,    where(logical_and(self >= -a, self <= a), 0.0, grad))
// clang-format on

// Every row, for what treats them alike: the enum, the functors, the kernels and the autograd.
#define EMBER_EVERY_UNARY_OP(X) EMBER_UNARY_OPS(X) EMBER_PARAMETRIC_UNARY_OPS(X)

namespace ember::kernels {

#define EMBER_UNARY_ENUMERATOR(Op, ...) Op,
enum class UnaryOp { EMBER_EVERY_UNARY_OP(EMBER_UNARY_ENUMERATOR) };
#undef EMBER_UNARY_ENUMERATOR

// Which dtypes a unary op takes, and the dtype it computes and returns. The front half applies
// the rule to the input (ops/unary.cpp, unary_compute_dtype) and the kernels instantiate the
// dtypes it lets through (elementwise_kernels.h, computes<>), so the two cannot disagree.
enum class UnaryDtypes {
  Any,         // every dtype; the result has the input's (sign)
  NoBool,      // as Any, but a bool input is refused: PyTorch has no bool kernel (abs, floor)
  Negation,    // NoBool, refused with PyTorch's own advice for masks (neg)
  BoolToLong,  // as Any, but bool computes in int64 (square, which is pow(x, 2))
  Float,       // integer and bool inputs compute in the default dtype (exp, log, sin, ...)
  FloatOnly,   // floating inputs only (gelu, silu, frac)
  ToBool,      // every dtype; the result is bool (logical_not, isnan)
  Bitwise,     // bool and integer inputs only, the result of their dtype (bitwise_not)
};

// A row's parameters (Note [Parametric unary ops]); zero for the rows that have none.
struct UnaryParams {
  double a = 0, b = 0, c = 0;
};

}  // namespace ember::kernels
