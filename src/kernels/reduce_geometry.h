// ReduceGeometry: the dims of a reduction as both reduce loops walk them, the CPU's and the GPU's
// block program. Compiled by g++ and nvcc; kernels/reduce_iter.h builds it.
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "kernels/offset_calc.h"

namespace ember::kernels {

// The input's dims split into kept dims (one output element each) and reduced dims (folded into
// that element); each group is coalesced, size-1 dims are dropped, strides are in elements and
// dim 0 of each group is its innermost (Note [One index decomposition]).
struct ReduceGeometry {
  static constexpr int kIn = 0;   // kept's operand of the input strides
  static constexpr int kOut = 1;  // kept's operand of the output strides (contiguous outputs)

  OffsetCalculator<2> kept;
  OffsetCalculator<1> reduced;  // the input's strides; at least one dim
  int64_t num_outputs = 1;
  int64_t reduced_numel = 1;

  struct KeptOffsets {
    int64_t in, out;
  };
  // Where output element o (row-major over the kept dims) starts in the input and sits in the
  // output.
  EMBER_HOST_DEVICE KeptOffsets kept_offsets(int64_t o) const {
    const auto offsets = kept.get(o);
    return {offsets.at[kIn], offsets.at[kOut]};
  }
  // The input offset of flat reduced index i from its output's start.
  EMBER_HOST_DEVICE int64_t reduced_offset(int64_t i) const { return reduced.get(i).at[0]; }
  // The input stride of the innermost reduced dim.
  EMBER_HOST_DEVICE int64_t reduced_step() const { return reduced.strides[0][0]; }
  // Neighbouring outputs are neighbours in the input and the reduced elements are not (a sum over
  // dim 0 of a row-major matrix): the loops then read across outputs, not along them.
  EMBER_HOST_DEVICE bool is_outer_reduction() const {
    return kept.ndim > 0 && kept.strides[0][kIn] == 1 && reduced_step() != 1;
  }
};

}  // namespace ember::kernels
