// ExpandingArrayWithOptionalElem<D>: an ExpandingArray of D optional values, as LibTorch's: the
// output sizes of the adaptive pools, where c10::nullopt keeps the input's size along that dim
// (AdaptiveAvgPool2dOptions({3, c10::nullopt})). Prints as [3, None], or 3 when D is 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/array_ref.h"
#include "ember/macros.h"
#include "ember/nn/expanding_array.h"

namespace ember {

// Visible as ExpandingArray is (libember's adaptive pools are instantiated over it).
template <size_t D, class T = int64_t>
class EMBER_API ExpandingArrayWithOptionalElem : public ExpandingArray<D, std::optional<T>> {
 public:
  using ExpandingArray<D, std::optional<T>>::ExpandingArray;
  /* implicit */ ExpandingArrayWithOptionalElem(std::initializer_list<T> list)  // NOLINT
      : ExpandingArrayWithOptionalElem(ArrayRef<T>(list)) {}
  /* implicit */ ExpandingArrayWithOptionalElem(const std::vector<T>& values)  // NOLINT
      : ExpandingArrayWithOptionalElem(ArrayRef<T>(values)) {}
  /* implicit */ ExpandingArrayWithOptionalElem(ArrayRef<T> values)  // NOLINT
      : ExpandingArray<D, std::optional<T>>(
            std::vector<std::optional<T>>(values.begin(), values.end())) {}
  /* implicit */ ExpandingArrayWithOptionalElem(T single)  // NOLINT
      : ExpandingArray<D, std::optional<T>>(std::optional<T>(single)) {}
  /* implicit */ ExpandingArrayWithOptionalElem(const std::array<T, D>& values)  // NOLINT
      : ExpandingArrayWithOptionalElem(ArrayRef<T>(values)) {}
};

template <size_t D, class T>
std::ostream& operator<<(std::ostream& os, const ExpandingArrayWithOptionalElem<D, T>& values) {
  auto print = [&os](const std::optional<T>& v) -> std::ostream& {
    return v ? os << *v : os << "None";
  };
  if (D == 1) return print((*values)[0]);
  os << "[";
  for (size_t i = 0; i < D; ++i) {
    if (i > 0) os << ", ";
    print((*values)[i]);
  }
  return os << "]";
}

}  // namespace ember
