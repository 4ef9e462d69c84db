// Scalar: a number that takes part in an op (x + 2.5), keeping whether it was bool, integer or
// floating so PyTorch's promotion rule (int64 tensor + 2.5 -> float32) can be applied.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <type_traits>

#include "ember/half.h"
#include "ember/macros.h"

namespace ember {

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Float };

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

  Kind kind() const { return kind_; }
  bool is_floating_point() const { return kind_ == Kind::Float; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_boolean() const { return kind_ == Kind::Bool; }

  double to_double() const { return kind_ == Kind::Float ? d_ : static_cast<double>(i_); }
  // A float out of the integer's range (NaN, inf) converts as tensors do (Note [Float to
  // integer conversion] in src/kernels/functors.h): to int64 gives INT64_MIN; narrower types
  // convert through int32 (INT32_MIN when out of its range) and then wrap.
  int64_t to_int64() const {
    if (kind_ != Kind::Float) return i_;
    return d_ >= -0x1p63 && d_ < 0x1p63 ? static_cast<int64_t>(d_) : INT64_MIN;
  }
  bool to_bool() const { return kind_ == Kind::Float ? d_ != 0.0 : i_ != 0; }
  template <class T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return to_bool();
    } else if constexpr (std::is_integral_v<T> && sizeof(T) < 8) {
      if (kind_ != Kind::Float) return static_cast<T>(i_);
      return static_cast<T>(d_ >= -0x1p31 && d_ < 0x1p31 ? static_cast<int32_t>(d_) : INT32_MIN);
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(to_int64());
    } else {
      return static_cast<T>(static_cast<float>(to_double()));
    }
  }

  // As LibTorch prints a Scalar: `std::cout << t.item()` writes 2.5, 3 or true. A hidden friend,
  // so that printing a Half or a BFloat16 does not find it through their conversion to Scalar.
  friend std::ostream& operator<<(std::ostream& os, const Scalar& s) {
    s.write_to(os);
    return os;
  }

 private:
  EMBER_API void write_to(std::ostream& os) const;

  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};
template <>
inline double Scalar::to<double>() const {
  return to_double();
}

}  // namespace ember
