// OffsetCalculator and OffsetCursor: where the elements of a strided geometry sit, for every loop
// on the host and the GPU alike (Note [One index decomposition]). Compiled by g++ and nvcc.
#pragma once

#include <cstdint>

#include "core/max_dims.h"
#include "ember/macros.h"

namespace ember::kernels {

// Note [One index decomposition]
// Every loop walks its geometry in one order: dim 0 is the innermost (fastest-moving) one, and
// element `linear` has the index idx[d] = rest % sizes[d], rest /= sizes[d] along each dim, the
// outermost dim taking the whole rest (below its size for an element of the geometry, so a 1-D
// geometry costs no division at all). Operand k of the element sits at the sum over the dims of
// idx[d] * strides[d][k]. OffsetCalculator::get is that step, for a GPU thread that jumps to its
// element; OffsetCursor walks on from there in order, for the CPU loops that run along dim 0 a
// run at a time. Elementwise ops (a TensorIter's byte offsets, kernels/iter_offsets.h),
// reductions (the kept and the reduced dims of kernels/reduce_geometry.h), gather/scatter and
// sort place their elements through these two only, so the CPU-only test suite checks the
// indexing the GPU uses.

// A geometry of `ndim` dims walked by N stride arrays together (one per operand).
template <int N, class index_t = int64_t>
struct OffsetCalculator {
  struct Offsets {
    index_t at[N];
  };

  int ndim = 0;
  index_t sizes[detail::kMaxDims] = {};
  index_t strides[detail::kMaxDims][N] = {};  // [dim][operand]: one dim's strides load together

  // The offsets of element `linear`, and its index along each dim into `idx` when given.
  EMBER_HOST_DEVICE Offsets get(index_t linear, index_t* idx = nullptr) const {
    Offsets out{};
    for (int d = 0; d < ndim; ++d) {
      const bool last = d + 1 == ndim;
      const index_t i = last ? linear : linear % sizes[d];
      if (!last) linear /= sizes[d];
      if (idx) idx[d] = i;
      for (int k = 0; k < N; ++k) out.at[k] += i * strides[d][k];
    }
    return out;
  }
};

// A walk over a geometry's elements in order from element `linear` (of a non-empty geometry):
// the current element's offsets, moved along dim 0 a run at a time.
template <int N, class index_t = int64_t>
class OffsetCursor {
 public:
  EMBER_HOST_DEVICE OffsetCursor(const OffsetCalculator<N, index_t>& calc, index_t linear)
      : calc_(calc) {
    offsets_ = calc.get(linear, idx_);
  }

  // Operand k's offset of the current element.
  EMBER_HOST_DEVICE index_t offset(int k = 0) const { return offsets_.at[k]; }
  // The elements from the current one to the end of its run along dim 0.
  EMBER_HOST_DEVICE index_t run_left() const { return calc_.sizes[0] - idx_[0]; }
  // Moves n <= run_left() elements on, into the next run when this one ends.
  EMBER_HOST_DEVICE void advance(index_t n) {
    idx_[0] += n;
    for (int k = 0; k < N; ++k) offsets_.at[k] += n * calc_.strides[0][k];
    for (int d = 0; d + 1 < calc_.ndim && idx_[d] == calc_.sizes[d]; ++d) {
      for (int k = 0; k < N; ++k)
        offsets_.at[k] += calc_.strides[d + 1][k] - idx_[d] * calc_.strides[d][k];
      idx_[d] = 0;
      ++idx_[d + 1];
    }
  }

 private:
  const OffsetCalculator<N, index_t>& calc_;
  index_t idx_[detail::kMaxDims];
  typename OffsetCalculator<N, index_t>::Offsets offsets_;
};

}  // namespace ember::kernels
