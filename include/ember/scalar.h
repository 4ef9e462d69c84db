// Scalar: a number that takes part in an op (x + 2.5), as c10::Scalar. It keeps whether it was
// bool, integer or floating, so that PyTorch's promotion rule (int64 tensor + 2.5 -> float32)
// applies, and it gives its value back through c10's checked accessors (toDouble(), toLong(),
// to<T>(), ...), which refuse a value the type cannot hold.
#pragma once

#include <cmath>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <type_traits>

#include "ember/dtype.h"
#include "ember/half.h"
#include "ember/macros.h"

namespace ember {

class Scalar {
 public:
  Scalar() : Scalar(int64_t{0}) {}
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Scalar(T v) {  // NOLINT: implicit, as in LibTorch
    if constexpr (std::is_same_v<T, bool>) {
      kind_ = Kind::Bool;
      i_ = v;
    } else if constexpr (std::is_integral_v<T>) {
      kind_ = Kind::Int;
      i_ = static_cast<int64_t>(v);
    } else {
      kind_ = Kind::Float;
      d_ = static_cast<double>(v);
    }
  }
  Scalar(Half v) : kind_(Kind::Float), d_(static_cast<float>(v)) {}      // NOLINT
  Scalar(BFloat16 v) : kind_(Kind::Float), d_(static_cast<float>(v)) {}  // NOLINT

  // What the number is as c10 stores it: Double for any floating value, Long for any integer,
  // Bool for a bool.
  ScalarType type() const {
    return kind_ == Kind::Float ? kDouble : kind_ == Kind::Int ? kLong : kBool;
  }
  bool isFloatingPoint() const { return kind_ == Kind::Float; }
  bool isIntegral(bool includeBool) const {
    return kind_ == Kind::Int || (includeBool && kind_ == Kind::Bool);
  }
  bool isBoolean() const { return kind_ == Kind::Bool; }
  bool isComplex() const { return false; }

  // The value as a C++ type, as c10's accessors: a fractional value truncates toward zero, and a
  // value the type cannot hold (NaN or 1e10 as an int, 1e300 as a float, 2 as a bool) throws
  // "value cannot be converted to type int without overflow". A negative integer into an
  // unsigned type wraps, as c10 allows.
  double toDouble() const { return to<double>(); }
  float toFloat() const { return to<float>(); }
  int64_t toLong() const { return to<int64_t>(); }
  int toInt() const { return to<int>(); }
  int16_t toShort() const { return to<int16_t>(); }
  int8_t toChar() const { return to<int8_t>(); }
  uint8_t toByte() const { return to<uint8_t>(); }
  bool toBool() const { return to<bool>(); }
  Half toHalf() const { return to<Half>(); }
  BFloat16 toBFloat16() const { return to<BFloat16>(); }
  template <class T>
  T to() const {
    if (overflows<T>()) [[unlikely]]
      throw_overflow(CppTypeToScalarType<T>::value);
    if (kind_ == Kind::Float) return static_cast<T>(static_cast<Limit<T>>(d_));
    return static_cast<T>(static_cast<Limit<T>>(i_));
  }

  // Whether this is `number` of the same kind (c10's Scalar::equal: 2.0 does not equal 2).
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  bool equal(T number) const {
    if constexpr (std::is_same_v<T, bool>) {
      return kind_ == Kind::Bool && (i_ != 0) == number;
    } else if constexpr (std::is_integral_v<T>) {
      return kind_ == Kind::Int && i_ == static_cast<int64_t>(number);
    } else {
      return kind_ == Kind::Float && d_ == static_cast<double>(number);
    }
  }

  Scalar operator-() const {
    if (kind_ == Kind::Float) return -d_;
    if (kind_ == Kind::Int) return -i_;
    throw_negated_bool();
  }

  // As LibTorch prints a Scalar: `std::cout << t.item()` writes 2.5, 3 or true. A hidden friend,
  // so that printing a Half or a BFloat16 does not find it through their conversion to Scalar.
  friend std::ostream& operator<<(std::ostream& os, const Scalar& s) {
    s.write_to(os);
    return os;
  }

 private:
  enum class Kind : uint8_t { Bool, Int, Float };
  // The arithmetic type whose limits bound T (the 16-bit floats convert through float).
  template <class T>
  using Limit = std::conditional_t<std::is_arithmetic_v<T>, T, float>;

  // c10's rule for checked conversions (overflows() in c10/util/TypeCast.h), except that a
  // float of 2^63 or more is refused as an int64 too, where c10's comparison rounds and lets it
  // through to an undefined conversion.
  template <class T>
  bool overflows() const {
    double lowest, max;
    if constexpr (std::is_same_v<T, Half>) {
      lowest = -65504.0, max = 65504.0;
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      max = static_cast<double>(std::numeric_limits<float>::max()), lowest = -max;
    } else {
      lowest = static_cast<double>(std::numeric_limits<T>::lowest());
      max = static_cast<double>(std::numeric_limits<T>::max());
    }
    if (kind_ == Kind::Float) {
      if (std::isnan(d_) || std::isinf(d_)) return !std::is_floating_point_v<Limit<T>>;
      return d_ < lowest || d_ > max || (std::is_integral_v<T> && d_ >= 0x1p63);
    }
    if constexpr (std::is_integral_v<T>) {
      using L = std::numeric_limits<T>;
      if (kind_ == Kind::Bool) return false;
      if constexpr (!L::is_signed) {  // a negative value wraps, as c10 allows
        const uint64_t magnitude = i_ < 0 ? -static_cast<uint64_t>(i_) : static_cast<uint64_t>(i_);
        return magnitude > static_cast<uint64_t>(L::max());
      } else {
        return i_ < static_cast<int64_t>(L::lowest()) || i_ > static_cast<int64_t>(L::max());
      }
    }
    return false;
  }
  [[noreturn]] EMBER_API void throw_overflow(ScalarType type) const;
  [[noreturn]] EMBER_API static void throw_negated_bool();
  EMBER_API void write_to(std::ostream& os) const;

  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};

}  // namespace ember
