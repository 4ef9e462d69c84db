// A TensorIter's geometry as an OffsetCalculator (kernels/offset_calc.h), for the CPU loop and the
// GPU programs over the iterator, and the index width the GPU may use for it. Host code.
#pragma once

#include <cstdint>

#include "kernels/offset_calc.h"
#include "kernels/tensor_iter.h"

namespace ember::kernels {

// The geometry of operands 0..N-1 of a non-empty iterator (every shape[d] >= 1), in index_t:
// the caller has checked that its offsets fit (fits_32bit_indexing below).
template <int N, class index_t>
OffsetCalculator<N, index_t> make_offset_calculator(const TensorIter& it) {
  OffsetCalculator<N, index_t> calc;
  calc.ndim = it.ndim;
  for (int d = 0; d < it.ndim; ++d) {
    calc.sizes[d] = static_cast<index_t>(it.shape[d]);
    for (int k = 0; k < N; ++k) calc.strides[d][k] = static_cast<index_t>(it.strides[k][d]);
  }
  return calc;
}

// Whether every offset and index of `it` fits in 32 unsigned bits: the GPU's integer division
// is several times faster on 32-bit operands. Negative strides take the 64-bit path.
inline bool fits_32bit_indexing(const TensorIter& it) {
  constexpr int64_t kMax = INT32_MAX;  // headroom: a GPU thread's first index never wraps
  if (it.numel > kMax) return false;
  for (int k = 0; k < it.ntensors; ++k) {
    int64_t max_offset = 0;
    for (int d = 0; d < it.ndim; ++d) {
      if (it.strides[k][d] < 0) return false;
      max_offset += (it.shape[d] - 1) * it.strides[k][d];
    }
    if (max_offset > kMax) return false;
  }
  return true;
}

}  // namespace ember::kernels
