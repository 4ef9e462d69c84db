// The binary elementwise ops (arithmetic, comparisons, logic and bits), one row each, as
// Note [Op tables] in ops/unary_table.h describes: the functors, the kernels of every backend,
// the public functions and their autograd (ops/binary.cpp) are generated from these rows.
// Only macros: nvcc reads this file too.
#pragma once

// A row is X(Op, name, dtypes, overloads, math, grad_fn, self_saves, self_gradient,
//             other_saves, other_gradient):
//   math       an expression in `a`, `b` (and `alpha`, the number add and sub scale b by)
//   overloads  which list of ember/elementwise_names.h has the row's name, and so which
//              public forms it has: TensorOnly name(self, other); WithScalar adds
//              name(self, Scalar other); WithAlpha is WithScalar with a last `alpha = 1`
//   grad_fn    an expression in `self` and `other` that names the node (pow's depends on which
//              operand is a number), or nullptr for a non-differentiable op
//   *_saves    what that input's gradient reads besides `grad` and `alpha`: Nothing, Self,
//              Other, SelfOther or All (self, other and result); backward keeps each only while
//              an input that needs grad reads it
//   *_gradient that input's gradient, an ember expression; the engine sums a broadcast gradient
//              to the input's shape and casts it to the input's dtype
// clang-format off
#define EMBER_BINARY_OPS(X)                                                                      \
  X(Add,          add,          Addition,        WithAlpha,  wrap_add(a, wrap_mul(alpha, b)),    \
    "AddBackward0",       Nothing,   grad,                                                       \
                          Nothing,   maybe_multiply(grad, alpha))                                \
  X(Sub,          sub,          Subtraction,     WithAlpha,  wrap_sub(a, wrap_mul(alpha, b)),    \
    "SubBackward0",       Nothing,   grad,                                                       \
                          Nothing,   maybe_multiply(-grad, alpha))                               \
  X(Mul,          mul,          Promote,         WithScalar, wrap_mul(a, b),                     \
    "MulBackward0",       Other,     grad * other,                                               \
                          Self,      grad * self)                                                \
  /* -g x / y^2 as PyTorch computes it, (x / y) / y: y^2 overflows long before the quotient */   \
  X(Div,          div,          TrueDivision,    WithScalar, a / b,                              \
    "DivBackward0",       Other,     grad / other,                                               \
                          SelfOther, -grad * (self / other / other))                             \
  /* piecewise constant: its result does not require grad */                                     \
  X(FloorDivide,  floor_divide, IntegerDivision, WithScalar, floor_divide_of(a, b),              \
    nullptr,              Nothing,   Tensor(),                                                   \
                          Nothing,   Tensor())                                                   \
  X(Remainder,    remainder,    IntegerDivision, WithScalar, remainder_of(a, b),                 \
    "RemainderBackward0", Nothing,   grad,                                                       \
                          SelfOther, -grad * floor_divide(self, other))                          \
  /* C's fmod: the result has the dividend's sign */                                             \
  X(Fmod,         fmod,         IntegerDivision, WithScalar, fmod_of(a, b),                      \
    "FmodBackward0",      Nothing,   grad,                                                       \
                          SelfOther, -grad * trunc(self / other))                                \
  /* pow's Scalar overloads are written out: an integer power must not be negative */          \
  X(Pow,          pow,          NoBool,          TensorOnly, pow_of(a, b),                       \
    pow_grad_fn(self, other),                                                                    \
                          SelfOther, pow_base_gradient(grad, self, other),                       \
                          All,       pow_exponent_gradient(grad, self, other, result))           \
  X(Atan2,        atan2,        Float,           TensorOnly, std::atan2(a, b),                   \
    "Atan2Backward0",     SelfOther, grad * other / (self * self + other * other),               \
                          SelfOther, grad * -self / (self * self + other * other))               \
  /* the larger (smaller) gets the gradient, ties split it; NaN makes both winners */           \
  X(Maximum,      maximum,      Promote,         TensorOnly, maximum_of(a, b),                   \
    "MaximumBackward0",   SelfOther, where(self < other, 0.0, split_ties(grad, self, other)),    \
                          SelfOther, where(self > other, 0.0, split_ties(grad, self, other)))    \
  X(Minimum,      minimum,      Promote,         TensorOnly, minimum_of(a, b),                   \
    "MinimumBackward0",   SelfOther, where(self > other, 0.0, split_ties(grad, self, other)),    \
                          SelfOther, where(self < other, 0.0, split_ties(grad, self, other)))    \
  X(Eq,           eq,           Compare,         WithScalar, a == b,                             \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(Ne,           ne,           Compare,         WithScalar, a != b,                             \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(Lt,           lt,           Compare,         WithScalar, a < b,                              \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(Le,           le,           Compare,         WithScalar, a <= b,                             \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(Gt,           gt,           Compare,         WithScalar, a > b,                              \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(Ge,           ge,           Compare,         WithScalar, a >= b,                             \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(LogicalAnd,   logical_and,  Compare,         TensorOnly, a != T(0) && b != T(0),             \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(LogicalOr,    logical_or,   Compare,         TensorOnly, a != T(0) || b != T(0),             \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(LogicalXor,   logical_xor,  Compare,         TensorOnly, (a != T(0)) != (b != T(0)),         \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(BitwiseAnd,   bitwise_and,  Bitwise,         WithScalar, a & b,                              \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(BitwiseOr,    bitwise_or,   Bitwise,         WithScalar, a | b,                              \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(BitwiseXor,   bitwise_xor,  Bitwise,         WithScalar, a ^ b,                              \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(LeftShift,    bitwise_left_shift,  Shift,    WithScalar, shift_left_of(a, b),                \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())                     \
  X(RightShift,   bitwise_right_shift, Shift,    WithScalar, shift_right_of(a, b),               \
    nullptr,              Nothing,   Tensor(),            Nothing, Tensor())
// clang-format on

namespace ember::kernels {

#define EMBER_BINARY_ENUMERATOR(Op, ...) Op,
enum class BinaryOp { EMBER_BINARY_OPS(EMBER_BINARY_ENUMERATOR) };
#undef EMBER_BINARY_ENUMERATOR

// Which dtypes a binary op takes and returns; all but TrueDivision compute in the operands'
// common dtype (PyTorch's result_type, Note [Result type]). Applied by the front half
// (ops/binary.cpp) and by the kernels (elementwise_kernels.h, computes<>).
enum class BinaryDtypes {
  Promote,          // every dtype (mul, maximum)
  Addition,         // Promote, and alpha must suit the result (PyTorch's alpha_check)
  Subtraction,      // Addition, but bool operands are refused with PyTorch's advice (sub)
  NoBool,           // Promote, but a bool result is refused: PyTorch has no kernel (pow)
  IntegerDivision,  // NoBool, and an integer zero divisor is a ZeroDivisionError on the CPU
  TrueDivision,     // integer and bool results compute in the default dtype (div)
  Float,            // TrueDivision, for math that calls libm (atan2)
  Compare,          // every dtype; the result is bool (eq, lt, logical_and, ...)
  Bitwise,          // bool and integer results only (bitwise_and, or, xor)
  Shift,            // integer results only (bitwise_left_shift, bitwise_right_shift)
};

}  // namespace ember::kernels
