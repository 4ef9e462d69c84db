// dispatch_dtype: calls fn(TypeTag<T>{}) with the C++ element type of a ScalarType, so one generic
// lambda serves every dtype. Expanded only in kernel files (never in public headers).
#pragma once

#include <cstdint>

#include "core/check.h"
#include "ember/dtype.h"
#include "ember/half.h"

namespace ember::kernels {

template <class T>
struct TypeTag {
  using type = T;
};

// The type arithmetic is done in: float for the 16-bit floats (PyTorch's opmath_type).
template <class T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <class T>
using opmath_t = typename OpMath<T>::type;

template <class Fn>
decltype(auto) dispatch_dtype(ScalarType t, const char* op, Fn&& fn) {
  switch (t) {
    case kBool: return fn(TypeTag<bool>{});
    case kUInt8: return fn(TypeTag<uint8_t>{});
    case kInt8: return fn(TypeTag<int8_t>{});
    case kInt16: return fn(TypeTag<int16_t>{});
    case kInt32: return fn(TypeTag<int32_t>{});
    case kInt64: return fn(TypeTag<int64_t>{});
    case kFloat16: return fn(TypeTag<Half>{});
    case kBFloat16: return fn(TypeTag<BFloat16>{});
    case kFloat32: return fn(TypeTag<float>{});
    case kFloat64: return fn(TypeTag<double>{});
  }
  detail::fail<TypeError>("[", op, "] unknown dtype");
}

// Only the floating types (ops whose math needs them: exp, softmax, ...).
template <class Fn>
decltype(auto) dispatch_floating(ScalarType t, const char* op, Fn&& fn) {
  switch (t) {
    case kFloat16: return fn(TypeTag<Half>{});
    case kBFloat16: return fn(TypeTag<BFloat16>{});
    case kFloat32: return fn(TypeTag<float>{});
    case kFloat64: return fn(TypeTag<double>{});
    case kBool:
    case kUInt8:
    case kInt8:
    case kInt16:
    case kInt32:
    case kInt64: break;
  }
  detail::fail<TypeError>("[", op, "] expected a floating-point tensor, got ", t);
}

}  // namespace ember::kernels
