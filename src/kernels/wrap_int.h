// Integer arithmetic that wraps instead of overflowing, shared by the elementwise, reduction
// and matmul kernels of every backend. Only <type_traits>: this file must compile under nvcc.
#pragma once

#include <type_traits>

#include "ember/macros.h"

namespace ember::kernels {

template <class T>
inline constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Note [Integer wraparound]
// Integer arithmetic wraps modulo 2^bits, as PyTorch's kernels do in practice. Signed overflow
// is undefined behaviour in C++ (and UBSan reports it), so it is computed in an unsigned type
// at least as wide as unsigned int (narrower ones would promote back to int and overflow there).
template <class T>
using WrapType = std::conditional_t<(sizeof(T) <= 4), unsigned int, unsigned long long>;
// On bool, add is `or` and mul is `and`, as PyTorch's bool add and mul.
template <class T>
EMBER_HOST_DEVICE inline T wrap_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a || b;
  else if constexpr (kIsInteger<T>) return static_cast<T>(WrapType<T>(a) + WrapType<T>(b));
  else return a + b;
}
template <class T>
EMBER_HOST_DEVICE inline T wrap_sub(T a, T b) {
  if constexpr (kIsInteger<T>) return static_cast<T>(WrapType<T>(a) - WrapType<T>(b));
  else return a - b;
}
template <class T>
EMBER_HOST_DEVICE inline T wrap_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a && b;
  else if constexpr (kIsInteger<T>) return static_cast<T>(WrapType<T>(a) * WrapType<T>(b));
  else return a * b;
}
template <class T>
EMBER_HOST_DEVICE inline T wrap_neg(T a) {
  if constexpr (kIsInteger<T>) return static_cast<T>(WrapType<T>(0) - WrapType<T>(a));
  else return -a;
}

}  // namespace ember::kernels
