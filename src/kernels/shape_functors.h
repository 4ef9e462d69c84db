// Element math of the shape ops, shared by the CPU and CUDA kernels: the sort order.
// Only <type_traits>: this file must compile under nvcc.
#pragma once

#include <type_traits>

#include "ember/macros.h"

namespace ember::kernels {

// Whether a goes before b in a sort: NaN counts as larger than every number (PyTorch's order),
// so it comes last ascending and first descending. Equal values (and two NaNs) are unordered;
// the kernels break such ties by position, which makes any sort stable.
template <class T>
struct SortBefore {
  bool descending;
  EMBER_HOST_DEVICE bool operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      bool a_nan = a != a, b_nan = b != b;
      if (a_nan || b_nan) return descending ? a_nan && !b_nan : b_nan && !a_nan;
    }
    return descending ? b < a : a < b;
  }
};

}  // namespace ember::kernels
