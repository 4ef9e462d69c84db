// DType: the element types ember stores, their names and PyTorch's type-promotion rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "ember/half.h"
#include "ember/macros.h"

namespace ember {

enum class DType : int8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};
inline constexpr int kNumDTypes = 10;

inline constexpr DType kBool = DType::Bool;
inline constexpr DType kUInt8 = DType::UInt8;
inline constexpr DType kInt8 = DType::Int8;
inline constexpr DType kInt16 = DType::Int16;
inline constexpr DType kInt32 = DType::Int32;
inline constexpr DType kInt64 = DType::Int64;
inline constexpr DType kFloat16 = DType::Float16;
inline constexpr DType kBFloat16 = DType::BFloat16;
inline constexpr DType kFloat32 = DType::Float32;
inline constexpr DType kFloat64 = DType::Float64;
// LibTorch's aliases.
inline constexpr DType kByte = DType::UInt8;
inline constexpr DType kChar = DType::Int8;
inline constexpr DType kShort = DType::Int16;
inline constexpr DType kInt = DType::Int32;
inline constexpr DType kLong = DType::Int64;
inline constexpr DType kHalf = DType::Float16;
inline constexpr DType kFloat = DType::Float32;
inline constexpr DType kDouble = DType::Float64;

namespace detail {
// At namespace scope, read from one table in memory: a table local to element_size is rebuilt on
// the stack wherever the compiler cannot hoist it, e.g. in a loop that may call a function.
inline constexpr size_t kElementSizes[kNumDTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
}  // namespace detail
constexpr size_t element_size(DType t) { return detail::kElementSizes[static_cast<int>(t)]; }
constexpr bool is_floating_point(DType t) {
  return t == kFloat16 || t == kBFloat16 || t == kFloat32 || t == kFloat64;
}
constexpr bool is_integral(DType t, bool include_bool = false) {
  return !is_floating_point(t) && (include_bool || t != kBool);
}

// The type both operands are converted to (torch.promote_types).
EMBER_API DType promote_types(DType a, DType b);
// Whether a result of type `from` may be written into a tensor of type `to` (torch.can_cast).
EMBER_API bool can_cast(DType from, DType to);
// c10's names, used in messages: "Float", "Long", "Half", "BFloat16", "Bool", ...
EMBER_API const char* dtype_name(DType t);
// Python's names, used when printing tensors: "torch.float32", "torch.int64", ...
EMBER_API const char* dtype_repr(DType t);
EMBER_API std::ostream& operator<<(std::ostream& os, DType t);

// Maps a C++ element type to its DType (for data_ptr<T>, item<T>, from_blob).
template <class T>
struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = kBool; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = kUInt8; };
template <> struct dtype_of<int8_t> { static constexpr DType value = kInt8; };
template <> struct dtype_of<int16_t> { static constexpr DType value = kInt16; };
template <> struct dtype_of<int32_t> { static constexpr DType value = kInt32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = kInt64; };
template <> struct dtype_of<Half> { static constexpr DType value = kFloat16; };
template <> struct dtype_of<BFloat16> { static constexpr DType value = kBFloat16; };
template <> struct dtype_of<float> { static constexpr DType value = kFloat32; };
template <> struct dtype_of<double> { static constexpr DType value = kFloat64; };
template <class T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

}  // namespace ember
