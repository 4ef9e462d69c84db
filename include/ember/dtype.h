// Element types, as LibTorch names them: ScalarType (c10::ScalarType) with its constants, sizes,
// names and PyTorch's type-promotion rule, and TypeMeta (caffe2::TypeMeta), what
// Tensor::dtype() returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>

#include "ember/half.h"
#include "ember/macros.h"

namespace ember {

// c10's enumerator names. The order is ember's own (the tables below are indexed by it), not
// c10's numbering, which no LibTorch API exposes.
enum class ScalarType : int8_t {
  Bool,
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  BFloat16,
  Float,
  Double,
};
using Dtype = ScalarType;  // torch::Dtype
inline constexpr int kNumScalarTypes = 10;

inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kByte = ScalarType::Byte;
inline constexpr ScalarType kChar = ScalarType::Char;
inline constexpr ScalarType kShort = ScalarType::Short;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kHalf = ScalarType::Half;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
// torch::'s names by width (torch/types.h).
inline constexpr ScalarType kUInt8 = kByte, kInt8 = kChar, kInt16 = kShort, kInt32 = kInt,
                            kInt64 = kLong, kFloat16 = kHalf, kFloat32 = kFloat, kFloat64 = kDouble;
inline constexpr ScalarType kU8 = kByte, kI8 = kChar, kI16 = kShort, kI32 = kInt, kI64 = kLong,
                            kF16 = kHalf, kF32 = kFloat, kF64 = kDouble;

namespace detail {
// At namespace scope, read from one table in memory: a table local to elementSize is rebuilt on
// the stack wherever the compiler cannot hoist it, e.g. in a loop that may call a function.
inline constexpr size_t kElementSizes[kNumScalarTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
}  // namespace detail
constexpr size_t elementSize(ScalarType t) { return detail::kElementSizes[static_cast<int>(t)]; }
constexpr bool isFloatingType(ScalarType t) {
  return t == kHalf || t == kBFloat16 || t == kFloat || t == kDouble;
}
constexpr bool isIntegralType(ScalarType t, bool includeBool) {
  return !isFloatingType(t) && (includeBool || t != kBool);
}
constexpr bool isComplexType(ScalarType) { return false; }  // ember has no complex dtypes
constexpr bool isSignedType(ScalarType t) { return t != kBool && t != kByte; }

// The type both operands are converted to (torch.promote_types; c10::promoteTypes).
EMBER_API ScalarType promoteTypes(ScalarType a, ScalarType b);
inline ScalarType promote_types(ScalarType a, ScalarType b) { return promoteTypes(a, b); }
// Whether a result of type `from` may be written into a tensor of type `to` (torch.can_cast).
EMBER_API bool canCast(ScalarType from, ScalarType to);
inline bool can_cast(ScalarType from, ScalarType to) { return canCast(from, to); }
// c10's names, as `std::cout << kFloat` prints them: "Float", "Long", "Half", "BFloat16", ...
EMBER_API const char* toString(ScalarType t);
EMBER_API std::ostream& operator<<(std::ostream& os, ScalarType t);

// The ScalarType of a C++ element type (data_ptr<T>, item<T>, from_blob), as c10's trait.
template <class T>
struct CppTypeToScalarType;
template <>
struct CppTypeToScalarType<bool> {
  static constexpr ScalarType value = kBool;
};
template <>
struct CppTypeToScalarType<uint8_t> {
  static constexpr ScalarType value = kByte;
};
template <>
struct CppTypeToScalarType<int8_t> {
  static constexpr ScalarType value = kChar;
};
template <>
struct CppTypeToScalarType<int16_t> {
  static constexpr ScalarType value = kShort;
};
template <>
struct CppTypeToScalarType<int32_t> {
  static constexpr ScalarType value = kInt;
};
template <>
struct CppTypeToScalarType<int64_t> {
  static constexpr ScalarType value = kLong;
};
template <>
struct CppTypeToScalarType<Half> {
  static constexpr ScalarType value = kHalf;
};
template <>
struct CppTypeToScalarType<BFloat16> {
  static constexpr ScalarType value = kBFloat16;
};
template <>
struct CppTypeToScalarType<float> {
  static constexpr ScalarType value = kFloat;
};
template <>
struct CppTypeToScalarType<double> {
  static constexpr ScalarType value = kDouble;
};

// What Tensor::dtype() and TensorOptions::dtype() return, as LibTorch's caffe2::TypeMeta: a
// ScalarType that compares with one either way (x.dtype() == kFloat) and prints as the C++ type
// ("float"), but does not convert to one implicitly (use scalar_type() or toScalarType()).
class TypeMeta {
 public:
  static constexpr TypeMeta fromScalarType(ScalarType t) noexcept { return TypeMeta(t); }
  template <class T>
  static constexpr TypeMeta Make() noexcept {
    return TypeMeta(CppTypeToScalarType<T>::value);
  }

  constexpr ScalarType toScalarType() const noexcept { return type_; }
  constexpr bool isScalarType() const noexcept { return true; }
  constexpr bool isScalarType(ScalarType t) const noexcept { return type_ == t; }
  template <class T>
  constexpr bool Match() const noexcept {
    return type_ == CppTypeToScalarType<T>::value;
  }
  constexpr size_t itemsize() const noexcept { return elementSize(type_); }
  // The C++ type's name, as LibTorch (built with g++) gives it: "float", "long int", "c10::Half".
  EMBER_API std::string_view name() const noexcept;

  friend constexpr bool operator==(TypeMeta a, TypeMeta b) noexcept { return a.type_ == b.type_; }
  friend constexpr bool operator==(TypeMeta a, ScalarType b) noexcept { return a.type_ == b; }

 private:
  constexpr explicit TypeMeta(ScalarType t) noexcept : type_(t) {}
  ScalarType type_;
};
EMBER_API std::ostream& operator<<(std::ostream& os, TypeMeta m);
constexpr ScalarType typeMetaToScalarType(TypeMeta m) noexcept { return m.toScalarType(); }
constexpr TypeMeta scalarTypeToTypeMeta(ScalarType t) noexcept {
  return TypeMeta::fromScalarType(t);
}

// The dtype of floating tensors made without one: factories and torch::tensor(2.5), integer
// inputs of float math (exp, true division), numbers like the 2.5 in int_tensor * 2.5. Float
// unless set_default_dtype changed it; process-wide, as in PyTorch.
EMBER_API TypeMeta get_default_dtype() noexcept;
EMBER_API ScalarType get_default_dtype_as_scalartype() noexcept;
// Only a floating type can be the default (ValueError otherwise).
EMBER_API void set_default_dtype(TypeMeta dtype);

}  // namespace ember
