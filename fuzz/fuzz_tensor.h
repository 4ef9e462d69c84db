// Small tensors decoded from fuzz input, in the layouts every op must handle: contiguous, with a
// storage offset, strided, permuted and broadcast (stride 0); 0-dim and zero-size shapes too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "ember/factory.h"
#include "ember/tensor.h"
#include "fuzz_input.h"

namespace ember::fuzz {

// The most elements a harness computes with, so no decoded program can allocate much memory
// legitimately; results above it are checked but not used further.
inline constexpr int64_t kMaxNumel = 256;

inline int64_t numel_of(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// A small shape: up to 4 dims of 0 to 4 elements, at most 256 elements.
inline std::vector<int64_t> small_shape(FuzzInput& in) { return in.shape(4, 4); }

// A tensor of `shape` over the 1-D contiguous storage tensor that make_storage(n) returns.
inline Tensor decode_layout(FuzzInput& in, IntArrayRef shape,
                            const std::function<Tensor(int64_t)>& make_storage) {
  const int64_t numel = numel_of(shape);
  switch (in.in_range(0, 4)) {
    case 1: return make_storage(numel + 1).narrow(0, 1, numel).view(shape);           // an offset
    case 2: return make_storage(2 * numel).slice(0, 0, std::nullopt, 2).view(shape);  // strided
    case 3: {  // the dims in reverse order in memory
      std::vector<int64_t> reversed = shape.vec();
      std::reverse(reversed.begin(), reversed.end());
      std::vector<int64_t> order(shape.size());
      for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int64_t>(order.size() - 1 - i);
      return make_storage(numel).view(reversed).permute(order);
    }
    case 4: {  // broadcast: some dims of size 1 in memory, expanded
      std::vector<int64_t> source = shape.vec();
      for (int64_t& s : source) s = in.flag() ? 1 : s;
      return make_storage(numel_of(source)).view(source).expand(shape);
    }
    default: return make_storage(numel).view(shape);
  }
}

// One element for a tensor of type T: a value from T's trouble spots (0, -0, +-1, the limits,
// infinities, NaN, subnormals), else any integer of T's width or an ordinary float (k / 8).
template <class T>
T element(FuzzInput& in) {
  if constexpr (std::is_same_v<T, bool>) {
    return in.flag();
  } else if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    const T special[] = {0, 1, 2, 3, static_cast<T>(-1), static_cast<T>(-2), L::min(), L::max()};
    return in.flag() ? in.one_of(special) : in.any<T>();
  } else {
    using F = std::numeric_limits<float>;
    const float special[] = {
        0.0f,          -0.0f,          1.0f,           -1.0f,           0.5f,     2.0f,
        3.0f,          -7.0f,          65504.0f,       1e30f,           F::max(), F::lowest(),
        F::infinity(), -F::infinity(), F::quiet_NaN(), F::denorm_min(), F::min(), 1e-3f};
    if (in.flag()) return static_cast<T>(in.one_of(special));
    return static_cast<T>(static_cast<float>(in.in_range<int>(-100, 100)) / 8.0f);
  }
}

template <class T>
Tensor values_of(FuzzInput& in, int64_t n) {
  Tensor t = empty({n}, CppTypeToScalarType<T>::value);
  T* p = t.data_ptr<T>();
  for (int64_t i = 0; i < n; ++i) p[i] = element<T>(in);
  return t;
}

// n elements of `dtype` read from the input, as a 1-D contiguous tensor.
inline Tensor decode_values(FuzzInput& in, ScalarType dtype, int64_t n) {
  switch (dtype) {
    case kBool: return values_of<bool>(in, n);
    case kUInt8: return values_of<uint8_t>(in, n);
    case kInt8: return values_of<int8_t>(in, n);
    case kInt16: return values_of<int16_t>(in, n);
    case kInt32: return values_of<int32_t>(in, n);
    case kInt64: return values_of<int64_t>(in, n);
    case kFloat16: return values_of<Half>(in, n);
    case kBFloat16: return values_of<BFloat16>(in, n);
    case kFloat32: return values_of<float>(in, n);
    case kFloat64: return values_of<double>(in, n);
  }
  return Tensor();
}

}  // namespace ember::fuzz
