// Element math, written once: every functor here is instantiated by the CPU loop (src/cpu) and
// the CUDA loop (src/cuda) alike, with T the compute type (float for half types).
// Only <cmath> and <type_traits>: this file must compile under nvcc.
#pragma once

#include <cmath>
#include <type_traits>

#include "ember/macros.h"
#include "kernels/wrap_int.h"

namespace ember::kernels {

template <class T>
inline constexpr bool kIsFloat = std::is_floating_point_v<T>;

// ---------------------------------------------------------------- binary arithmetic
enum class BinaryOp { Add, Mul, Div, FloorDivide, Remainder, Pow, Maximum, Minimum };

template <class T>
struct AddAlpha {  // a + alpha * b; sub is add with -alpha
  T alpha;
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a || (alpha && b);
    else return static_cast<T>(wrap_add(a, wrap_mul(alpha, b)));
  }
};
template <class T>
struct Mul {
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else return static_cast<T>(wrap_mul(a, b));
  }
};
template <class T>
struct Div {  // floating only: the front half promotes integers to float
  EMBER_HOST_DEVICE T operator()(T a, T b) const { return a / b; }
};
// FloorDivide, Remainder and Pow never see bool: the front half refuses a bool result.
template <class T>
struct FloorDivide {  // Python's //: rounds toward negative infinity
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
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
};
template <class T>
struct Remainder {  // Python's %: the result has the divisor's sign
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
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
};
template <class T>
struct Pow {
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
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
};
template <class T>
struct Maximum {  // NaN propagates
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a > b ? a : b;
  }
};
template <class T>
struct Minimum {
  EMBER_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a < b ? a : b;
  }
};

// ---------------------------------------------------------------- comparisons and logic
enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr, LogicalXor };

template <class T, CompareOp op>
struct Compare {
  EMBER_HOST_DEVICE bool operator()(T a, T b) const {
    if constexpr (op == CompareOp::Eq) return a == b;
    else if constexpr (op == CompareOp::Ne) return a != b;
    else if constexpr (op == CompareOp::Lt) return a < b;
    else if constexpr (op == CompareOp::Le) return a <= b;
    else if constexpr (op == CompareOp::Gt) return a > b;
    else if constexpr (op == CompareOp::Ge) return a >= b;
    else if constexpr (op == CompareOp::LogicalAnd) return (a != T(0)) && (b != T(0));
    else if constexpr (op == CompareOp::LogicalOr) return (a != T(0)) || (b != T(0));
    else return (a != T(0)) != (b != T(0));
  }
};

template <class T>
struct Where {
  EMBER_HOST_DEVICE T operator()(bool c, T a, T b) const { return c ? a : b; }
};

// ---------------------------------------------------------------- unary
enum class UnaryOp {
  Neg, Abs, Sign, Exp, Log, Log1p, Expm1, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Sigmoid, Relu, Gelu,
  Silu, Erf, Floor, Ceil, Round, Reciprocal, Square, LogicalNot,
};

template <class T, UnaryOp op>
struct Unary {
  EMBER_HOST_DEVICE auto operator()(T x) const {
    using std::abs;
    if constexpr (op == UnaryOp::Neg) return static_cast<T>(wrap_neg(x));
    else if constexpr (op == UnaryOp::Abs) {
      if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return x;
      else return static_cast<T>(x < 0 ? wrap_neg(x) : x);
    } else if constexpr (op == UnaryOp::Sign) {
      if constexpr (std::is_same_v<T, bool>) return x;
      else return static_cast<T>((T(0) < x) - (x < T(0)));
    } else if constexpr (op == UnaryOp::Exp) return std::exp(x);
    else if constexpr (op == UnaryOp::Log) return std::log(x);
    else if constexpr (op == UnaryOp::Log1p) return std::log1p(x);
    else if constexpr (op == UnaryOp::Expm1) return std::expm1(x);
    else if constexpr (op == UnaryOp::Sqrt) return std::sqrt(x);
    else if constexpr (op == UnaryOp::Rsqrt) return T(1) / std::sqrt(x);
    else if constexpr (op == UnaryOp::Sin) return std::sin(x);
    else if constexpr (op == UnaryOp::Cos) return std::cos(x);
    else if constexpr (op == UnaryOp::Tan) return std::tan(x);
    else if constexpr (op == UnaryOp::Tanh) return std::tanh(x);
    else if constexpr (op == UnaryOp::Sigmoid) return T(1) / (T(1) + std::exp(-x));
    else if constexpr (op == UnaryOp::Relu) return x < T(0) ? T(0) : x;  // NaN stays NaN
    else if constexpr (op == UnaryOp::Gelu)
      return static_cast<T>(T(0.5) * x * (T(1) + std::erf(x * T(0.70710678118654752440))));
    else if constexpr (op == UnaryOp::Silu) return x / (T(1) + std::exp(-x));
    else if constexpr (op == UnaryOp::Erf) return std::erf(x);
    else if constexpr (op == UnaryOp::Floor) {
      if constexpr (kIsFloat<T>) return std::floor(x);
      else return x;
    } else if constexpr (op == UnaryOp::Ceil) {
      if constexpr (kIsFloat<T>) return std::ceil(x);
      else return x;
    } else if constexpr (op == UnaryOp::Round) {
      if constexpr (kIsFloat<T>) return std::nearbyint(x);  // half to even
      else return x;
    } else if constexpr (op == UnaryOp::Reciprocal) return T(1) / x;
    else if constexpr (op == UnaryOp::Square) {
      if constexpr (std::is_same_v<T, bool>) return x;
      else return static_cast<T>(wrap_mul(x, x));
    } else return !(x != T(0));  // LogicalNot
  }
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
