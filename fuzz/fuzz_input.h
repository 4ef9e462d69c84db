// FuzzInput: the typed reads the tensor harnesses decode their bytes with. Integer arguments
// lean toward small values but reach the edges of int64, where shape arithmetic overflows.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "ember/dtype.h"

namespace ember::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : bytes_(data, size) {}

  bool exhausted() { return bytes_.remaining_bytes() == 0; }
  bool flag() { return bytes_.ConsumeBool(); }
  template <class T>
  T in_range(T lo, T hi) {
    return bytes_.ConsumeIntegralInRange<T>(lo, hi);
  }
  template <class T, size_t N>
  T one_of(const T (&values)[N]) {
    return bytes_.PickValueInArray(values);
  }
  template <class T>
  T any() {
    return bytes_.ConsumeIntegral<T>();
  }

  // A dim, index, size, length or step: small most of the time (what valid calls use), else an
  // edge value or any int64 at all.
  int64_t arg() {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kEdges[] = {kMin,
                                  kMin + 1,
                                  -(int64_t{1} << 62),
                                  -(int64_t{1} << 32),
                                  -(int64_t{1} << 31),
                                  int64_t{1} << 31,
                                  int64_t{1} << 32,
                                  int64_t{1} << 62,
                                  kMax - 1,
                                  kMax};
    switch (in_range(0, 7)) {
      case 6: return one_of(kEdges);
      case 7: return any<int64_t>();
      default: return in_range<int64_t>(-4, 5);
    }
  }
  std::vector<int64_t> args(size_t max_count) {
    std::vector<int64_t> out(in_range<size_t>(0, max_count));
    for (int64_t& v : out) v = arg();
    return out;
  }

  ScalarType dtype() { return static_cast<ScalarType>(in_range(0, kNumScalarTypes - 1)); }

  // A shape of up to max_dims dims of 0 to max_size each (0-dim and zero-size shapes included).
  std::vector<int64_t> shape(size_t max_dims, int64_t max_size) {
    std::vector<int64_t> out(in_range<size_t>(0, max_dims));
    for (int64_t& s : out) s = in_range<int64_t>(0, max_size);
    return out;
  }

 private:
  FuzzedDataProvider bytes_;
};

}  // namespace ember::fuzz
