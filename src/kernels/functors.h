// Element math, written once: every functor here is instantiated by the CPU loop (src/cpu) and
// the CUDA loop (src/cuda) alike, with T the compute type (float for half types).
// Only <cmath>, <type_traits> and the op tables' macros: this file must compile under nvcc.
#pragma once

#include <cmath>
#include <type_traits>

#include "ember/macros.h"
#include "kernels/wrap_int.h"
#include "ops/binary_table.h"
#include "ops/unary_table.h"

namespace ember::kernels {

template <class T>
inline constexpr bool kIsFloat = std::is_floating_point_v<T>;

// ---------------------------------------------------------------- element math of the op tables
// The helpers the `math` columns of ops/unary_table.h and ops/binary_table.h call where an
// expression alone would not do (type-dependent code, several steps).

inline constexpr double kInvSqrt2 = 0.70710678118654752440;

template <class T>
EMBER_HOST_DEVICE T abs_of(T x) {
  if constexpr (std::is_unsigned_v<T>) return x;
  else return static_cast<T>(x < 0 ? wrap_neg(x) : x);
}
template <class T>
EMBER_HOST_DEVICE T sign_of(T x) {
  if constexpr (std::is_same_v<T, bool>) return x;
  else return static_cast<T>((T(0) < x) - (x < T(0)));
}
// floor, ceil and round leave integers as they are.
template <class T>
EMBER_HOST_DEVICE T floor_of(T x) {
  if constexpr (kIsFloat<T>) return std::floor(x);
  else return x;
}
template <class T>
EMBER_HOST_DEVICE T ceil_of(T x) {
  if constexpr (kIsFloat<T>) return std::ceil(x);
  else return x;
}
template <class T>
EMBER_HOST_DEVICE T round_half_even(T x) {
  if constexpr (kIsFloat<T>) return std::nearbyint(x);  // the default rounding mode: to even
  else return x;
}

template <class T>
EMBER_HOST_DEVICE T trunc_of(T x) {
  if constexpr (kIsFloat<T>) return std::trunc(x);
  else return x;
}
// ~x, which is `not` on bool.
template <class T>
EMBER_HOST_DEVICE T bitwise_not_of(T x) {
  if constexpr (std::is_same_v<T, bool>) return !x;
  else return static_cast<T>(~x);
}
// Integers are never infinite, and always finite.
template <class T>
EMBER_HOST_DEVICE bool is_inf_of(T x) {
  if constexpr (kIsFloat<T>) return std::isinf(x);
  else return false;
}
template <class T>
EMBER_HOST_DEVICE bool is_finite_of(T x) {
  if constexpr (kIsFloat<T>) return std::isfinite(x);
  else return true;
}

// The activations' pieces, in PyTorch's own order of operations so that results agree to the bit.
// min(x, 0) - log(1 + e^-|x|): log(sigmoid(x)) without overflow either way.
template <class T>
EMBER_HOST_DEVICE T log_sigmoid_of(T x) {
  return (x < T(0) ? x : T(0)) - std::log1p(std::exp(x < T(0) ? x : -x));
}
// min(max(x + 3, 0), 6), NaN staying NaN: hardsigmoid is this / 6, hardswish x * this / 6.
template <class T>
EMBER_HOST_DEVICE T hard_ramp(T x) {
  T y = x + T(3);
  y = y < T(0) ? T(0) : y;
  return y > T(6) ? T(6) : y;
}

// The parametric activations (Note [Parametric unary ops]), as PyTorch 1.13's CPU kernels.
// elu: e^(x input_scale) - 1 (not expm1, as PyTorch) times alpha scale at or below 0, else x scale.
template <class T>
EMBER_HOST_DEVICE T elu_of(T x, T negative_coef, T positive_coef, T input_scale) {
  return x <= T(0) ? (std::exp(x * input_scale) - T(1)) * negative_coef : x * positive_coef;
}
// min(max(x, lo), hi), NaN staying NaN: hardtanh.
template <class T>
EMBER_HOST_DEVICE T clamp_of(T x, T lo, T hi) {
  T y = x < lo ? lo : x;
  return y > hi ? hi : y;
}
// log(1 + e^(beta x)) / beta, and x itself once beta x passes the threshold.
template <class T>
EMBER_HOST_DEVICE T softplus_of(T x, T beta, T threshold) {
  return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
}
// x moved toward 0 by lambd, 0 within [-lambd, lambd] (x * 0 keeps NaN).
template <class T>
EMBER_HOST_DEVICE T softshrink_of(T x, T lambd) {
  return x > lambd ? x - lambd : (x < -lambd ? x + lambd : x * T(0));
}

// Python's //: rounds toward negative infinity.
template <class T>
EMBER_HOST_DEVICE T floor_divide_of(T a, T b) {
  if constexpr (kIsFloat<T>) {
    if (b == 0) return a / b;
    T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
    if (div == 0) return std::copysign(T(0), a / b);
    T fl = std::floor(div);
    if (div - fl > T(0.5)) fl += 1;
    return fl;
  } else {
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return wrap_neg(a);  // MIN / -1 overflows: it wraps to MIN
    T q = static_cast<T>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  }
}
// Python's %: the result has the divisor's sign.
template <class T>
EMBER_HOST_DEVICE T remainder_of(T a, T b) {
  if constexpr (kIsFloat<T>) {
    T m = std::fmod(a, b);
    if (m != 0 && ((b < 0) != (m < 0))) m += b;
    return m;
  } else {
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return T(0);  // MIN % -1 would overflow
    T m = static_cast<T>(a % b);
    if (m != 0 && ((b < 0) != (m < 0))) m = static_cast<T>(m + b);
    return m;
  }
}
// C's fmod: the result has the dividend's sign.
template <class T>
EMBER_HOST_DEVICE T fmod_of(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return std::fmod(a, b);
  } else {
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return T(0);  // MIN % -1 would overflow
    return static_cast<T>(a % b);
  }
}
// Shifts as PyTorch's kernels make them defined for every count: a count that is negative or
// at least the width shifts everything out (the sign fills a signed right shift), and a left
// shift happens in the unsigned type, so a negative value shifts without overflow.
template <class T>
EMBER_HOST_DEVICE T shift_left_of(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (b < 0 || b >= T(sizeof(T) * 8)) return T(0);
  return static_cast<T>(static_cast<U>(static_cast<U>(a) << b));
}
template <class T>
EMBER_HOST_DEVICE T shift_right_of(T a, T b) {
  constexpr T kMaxShift = T(sizeof(T) * 8 - (std::is_signed_v<T> ? 1 : 0));
  if (b < 0 || b >= kMaxShift) return static_cast<T>(a >> kMaxShift);
  return static_cast<T>(a >> b);
}

template <class T>
EMBER_HOST_DEVICE T pow_of(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return std::pow(a, b);
  } else {
    // Integer powers as PyTorch computes them: negative exponents give 1/a^|b| truncated.
    if (b < 0) {
      if (a == 1) return 1;
      if (a == -1) return (b % 2 == 0) ? 1 : -1;
      return 0;
    }
    T result = 1;
    T base = a;
    T e = b;
    while (e) {
      if (e & 1) result = wrap_mul(result, base);
      e = static_cast<T>(e >> 1);
      base = wrap_mul(base, base);
    }
    return result;
  }
}
// maximum and minimum propagate NaN.
template <class T>
EMBER_HOST_DEVICE T maximum_of(T a, T b) {
  if constexpr (kIsFloat<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a > b ? a : b;
}
template <class T>
EMBER_HOST_DEVICE T minimum_of(T a, T b) {
  if constexpr (kIsFloat<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a < b ? a : b;
}

// ---------------------------------------------------------------- the tables' functors
// kernels::Op<T> for every row: Op<T>{}(x), Op<T>{a, b, c}(x) for the rows of Note [Parametric
// unary ops], or Op<T>{alpha}(a, b) computes the row's math in T. The parameter-free functors
// stay empty: their kernels pass nothing.
#define EMBER_UNARY_FUNCTOR(Op, name, dtypes, math, ...)          \
  template <class T>                                              \
  struct Op {                                                     \
    EMBER_HOST_DEVICE auto operator()(T x) const { return math; } \
  };
EMBER_UNARY_OPS(EMBER_UNARY_FUNCTOR)
#undef EMBER_UNARY_FUNCTOR
#define EMBER_PARAMETRIC_UNARY_FUNCTOR(Op, name, dtypes, math, ...) \
  template <class T>                                                \
  struct Op {                                                       \
    T a, b, c;                                                      \
    EMBER_HOST_DEVICE auto operator()(T x) const { return math; }   \
  };
EMBER_PARAMETRIC_UNARY_OPS(EMBER_PARAMETRIC_UNARY_FUNCTOR)
#undef EMBER_PARAMETRIC_UNARY_FUNCTOR

// Every binary functor carries alpha; only add and sub read it.
#define EMBER_BINARY_FUNCTOR(Op, name, dtypes, overloads, math, ...)   \
  template <class T>                                                   \
  struct Op {                                                          \
    T alpha{};                                                         \
    EMBER_HOST_DEVICE auto operator()(T a, T b) const { return math; } \
  };
EMBER_BINARY_OPS(EMBER_BINARY_FUNCTOR)
#undef EMBER_BINARY_FUNCTOR

template <class T>
struct Where {
  EMBER_HOST_DEVICE T operator()(bool c, T a, T b) const { return c ? a : b; }
};

// clamp(x, lo, hi): NaN stays NaN; with both bounds, a NaN bound makes every element NaN (as
// PyTorch's clamp); a missing bound is not applied.
// Written as selects without early returns so that a CPU loop over it vectorises (branches on
// random data cost a misprediction every few elements).
template <class T>
struct Clamp {
  T lo, hi;
  bool has_lo, has_hi;
  EMBER_HOST_DEVICE T operator()(T x) const {
    T y = x;
    if (has_lo) y = y < lo ? lo : y;
    if (has_hi) y = y > hi ? hi : y;
    if constexpr (kIsFloat<T>) {
      y = x != x ? x : y;
      if (has_lo && has_hi && (lo != lo || hi != hi)) y = lo != lo ? lo : hi;
    }
    return y;
  }
};

// Note [Float to integer conversion]
// C++ leaves a float outside the target's range (NaN and inf included) undefined. ember gives
// every device x86's answer, which PyTorch's CPU results show: int64 through a 64-bit
// conversion, narrower integers through a 32-bit one and then wrapped to their width, with an
// out-of-range value becoming that conversion's minimum (INT64_MIN, INT32_MIN).
template <class To, class From>
EMBER_HOST_DEVICE inline To float_to_integer(From v) {
  if constexpr (sizeof(To) == 8) {
    constexpr From kLimit = From(9223372036854775808.0);  // 2^63
    return v >= -kLimit && v < kLimit ? static_cast<To>(v) : To(1ULL << 63);
  } else {
    constexpr From kLimit = From(2147483648.0);  // 2^31
    int i = v >= -kLimit && v < kLimit ? static_cast<int>(v) : int(1U << 31);
    return static_cast<To>(i);
  }
}

// Conversion between storage types (copy_, to(dtype)); bool means "non-zero". The 16-bit
// floats convert through float.
template <class To, class From>
EMBER_HOST_DEVICE inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_arithmetic_v<From>) return v != From(0);
    else return static_cast<float>(v) != 0.0f;
  } else if constexpr (!std::is_arithmetic_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (kIsInteger<To> && kIsFloat<From>) {
    return float_to_integer<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace ember::kernels
