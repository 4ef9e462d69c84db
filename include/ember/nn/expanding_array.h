// ExpandingArray<D>: D values given as one (expanded to all D) or as D, as LibTorch's: the
// kernel_size, stride and padding of Conv2dOptions(1, 8, 3).stride({2, 1}). Prints as [3, 3]
// (a single value as 3).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

#include "ember/array_ref.h"
#include "ember/error.h"
#include "ember/macros.h"
#include "ember/string_util.h"

namespace ember {

// Visible (EMBER_API) although all inline: libember's layers are instantiated over it
// (AdaptiveAvgPoolImpl<1, ExpandingArray<1>, ...>), and an instantiation over a hidden type would
// be hidden too.
template <size_t D, class T = int64_t>
class EMBER_API ExpandingArray {
 public:
  /* implicit */ ExpandingArray(T single) { values_.fill(single); }  // NOLINT
  /* implicit */ ExpandingArray(std::initializer_list<T> list)       // NOLINT
      : ExpandingArray(ArrayRef<T>(list)) {}
  /* implicit */ ExpandingArray(const std::vector<T>& values)  // NOLINT
      : ExpandingArray(ArrayRef<T>(values)) {}
  /* implicit */ ExpandingArray(ArrayRef<T> values) {  // NOLINT
    if (values.size() != D)
      throw ValueError(str("[ExpandingArray] expected ", D, " values, got ", values.size()));
    for (size_t i = 0; i < D; ++i) values_[i] = values[i];
  }

  std::array<T, D>& operator*() noexcept { return values_; }
  const std::array<T, D>& operator*() const noexcept { return values_; }
  std::array<T, D>* operator->() noexcept { return &values_; }
  const std::array<T, D>* operator->() const noexcept { return &values_; }
  operator ArrayRef<T>() const noexcept { return values_; }  // NOLINT
  size_t size() const noexcept { return D; }
  bool operator==(const ExpandingArray&) const = default;

 private:
  std::array<T, D> values_;
};

template <size_t D, class T>
std::ostream& operator<<(std::ostream& os, const ExpandingArray<D, T>& values) {
  if (D == 1) return os << (*values)[0];  // as LibTorch's: kernel_size=3
  os << "[";
  for (size_t i = 0; i < D; ++i) os << (i ? ", " : "") << (*values)[i];
  return os << "]";
}

}  // namespace ember
