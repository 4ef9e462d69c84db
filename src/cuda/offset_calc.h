// OffsetCalculator: a linear element index of a TensorIter to each operand's byte offset, on the
// host and the GPU alike. Compiled by g++ and nvcc, so the CPU-only test suite checks the
// indexing the CUDA loop uses (Note [Emulated GPU loop] in elementwise_program.h).
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "kernels/tensor_iter.h"

namespace ember::cuda {

// The decomposition is the CPU loop's (cpu/loops.h, for_each_strip_range): dim 0 is the
// innermost, idx[d] = rest % shape[d], rest /= shape[d], offset = sum idx[d] * stride[d].
template <int N, class index_t>
struct OffsetCalculator {
  struct Offsets {
    index_t at[N];
  };

  int ndim = 0;
  index_t sizes[kernels::kMaxDims] = {};
  index_t strides[kernels::kMaxDims][N] =
      {};  // bytes, [dim][operand]: one dim's strides load together

  EMBER_HOST_DEVICE Offsets get(index_t linear) const {
    Offsets out{};
    for (int d = 0; d < ndim; ++d) {
      // The outermost dim takes the whole rest (it is below sizes[d] for an in-range index), so a
      // 1-D geometry costs no division at all.
      const bool last = d + 1 == ndim;
      const index_t i = last ? linear : linear % sizes[d];
      if (!last) linear /= sizes[d];
      for (int k = 0; k < N; ++k) out.at[k] += i * strides[d][k];
    }
    return out;
  }
};

// Whether every offset and index of `it` fits in 32 unsigned bits: the GPU's integer division
// is several times faster on 32-bit operands. Negative strides take the 64-bit path.
inline bool fits_32bit_indexing(const kernels::TensorIter& it) {
  constexpr int64_t kMax = INT32_MAX;  // headroom: block * kBlockWork + thread never wraps
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

// Only for a non-empty iterator with exactly N operands (every shape[d] >= 1).
template <int N, class index_t>
OffsetCalculator<N, index_t> make_offset_calculator(const kernels::TensorIter& it) {
  OffsetCalculator<N, index_t> calc;
  calc.ndim = it.ndim;
  for (int d = 0; d < it.ndim; ++d) {
    calc.sizes[d] = static_cast<index_t>(it.shape[d]);
    for (int k = 0; k < N; ++k) calc.strides[d][k] = static_cast<index_t>(it.strides[k][d]);
  }
  return calc;
}

}  // namespace ember::cuda
