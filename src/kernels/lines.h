// A contiguous tensor as lines along one dim, the geometry of softmax and cumsum on the CPU and
// the GPU. Compiled by g++ and nvcc.
#pragma once

#include <cstdint>

#include "ember/macros.h"

namespace ember::kernels {

// outer * inner lines of n elements: line l starts at element (l / inner) * n * inner + l % inner
// and steps by inner.
struct Lines {
  int64_t outer = 1, n = 1, inner = 1;

  Lines(const int64_t* sizes, int64_t ndim, int64_t dim) {
    for (int64_t d = 0; d < ndim; ++d) {
      if (d < dim) outer *= sizes[d];
      else if (d == dim) n = sizes[d];
      else inner *= sizes[d];
    }
  }
  EMBER_HOST_DEVICE int64_t count() const { return outer * inner; }
  EMBER_HOST_DEVICE int64_t start(int64_t line) const {
    return line / inner * n * inner + line % inner;
  }
};

}  // namespace ember::kernels
