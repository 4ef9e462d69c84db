// The public names of the elementwise ops, grouped by the signatures they share. ops.h and
// tensor.h declare every form of each name from these lists (the function, the in-place and out=
// functions, the method and the in-place method, as LibTorch has them); the op itself is one row
// of src/ops/unary_table.h or src/ops/binary_table.h, and a compile-time check there keeps the
// rows and these lists the same.
#pragma once

// Laid out by hand: clang-format reflows macro lists differently on each pass.
// clang-format off

// x.name(), name(x), name_(x), name_out(out, x)
#define EMBER_PUBLIC_UNARY_OPS(X)                                                              \
  X(neg) X(abs) X(sign) X(exp) X(exp2) X(log) X(log2) X(log10) X(log1p) X(expm1) X(sqrt)      \
  X(rsqrt) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(sigmoid)     \
  X(relu) X(gelu) X(silu) X(mish) X(hardsigmoid) X(hardswish) X(log_sigmoid) X(erf) X(floor)  \
  X(ceil) X(round) X(trunc) X(frac) X(reciprocal) X(square) X(logical_not) X(bitwise_not)      \
  X(isnan) X(isinf) X(isfinite)

// name(x, p...), name_(x, p...), name_out(out, x, p...), x.name(p...), x.name_(p...): the
// activations with Scalar parameters, X(name, parameters) with LibTorch's names and defaults
#define EMBER_PUBLIC_PARAMETRIC_UNARY_OPS(X)                                                   \
  X(leaky_relu, const Scalar& negative_slope = 0.01)                                           \
  X(elu, const Scalar& alpha = 1, const Scalar& scale = 1, const Scalar& input_scale = 1)      \
  X(hardtanh, const Scalar& min_val = -1, const Scalar& max_val = 1)                           \
  X(softplus, const Scalar& beta = 1, const Scalar& threshold = 20)                            \
  X(threshold, const Scalar& threshold, const Scalar& value)                                   \
  X(softshrink, const Scalar& lambd = 0.5)                                                     \
  X(hardshrink, const Scalar& lambd = 0.5)

// name(x, y, alpha = 1) for y a tensor or a number, and their in-place and out= forms
#define EMBER_PUBLIC_BINARY_ALPHA_OPS(X) X(add) X(sub)

// name(x, y) for y a tensor or a number, and their in-place and out= forms
#define EMBER_PUBLIC_BINARY_SCALAR_OPS(X)                                                      \
  X(mul) X(div) X(floor_divide) X(remainder) X(fmod) X(eq) X(ne) X(lt) X(le) X(gt) X(ge)       \
  X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(bitwise_left_shift) X(bitwise_right_shift)

// name(x, y) for a tensor y only, and its in-place and out= forms; pow's overloads with a number
// base or exponent are declared beside it
#define EMBER_PUBLIC_BINARY_TENSOR_OPS(X) \
  X(pow) X(atan2) X(maximum) X(minimum) X(logical_and) X(logical_or) X(logical_xor)

// clang-format on
