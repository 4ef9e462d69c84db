// Kernel entry points of the shape ops (gather/scatter, index checks, sort); the front halves
// in src/ops/ build the geometry, the backends fill the stubs.
#pragma once

#include <cstdint>
#include <utility>

#include "kernels/dispatch_stub.h"
#include "kernels/index_bounds.h"
#include "kernels/tensor_iter.h"

namespace ember::kernels {

// Operands of the iterator: [dst, src, index], all of the index's shape. The indexed operand
// (src for Gather, dst for the scatters) is restrided with stride 0 along the op's dim, so
// element i is reached at its pointer plus index[i] * dim_stride bytes.
enum class IndexOp { Gather, Scatter, ScatterAdd };
// An index outside [0, bounds.size) raises bounds' error (nothing is promised about what was
// written then): before returning on the CPU, at the host's next wait for a GPU (Note [Index
// errors found by GPU kernels]).
using ScatterGatherFn = void (*)(TensorIter&, IndexOp, const IndexBounds& bounds,
                                 int64_t dim_stride);

// Checks every element of an int64 tensor against bounds, raising as above.
using CheckIndicesFn = void (*)(const Tensor& index, const IndexBounds& bounds);

// The iterator walks one element per slice: operands [values, self, indices] selected at 0
// along the sorted dim. Each slice of n elements is ordered by SortBefore (ties by position)
// and its first k go to values/indices; `sorted` false lets the k come in any order.
struct SortSpec {
  int64_t n;
  int64_t k;
  int64_t strides[3];  // bytes along the sorted dim, per operand
  bool descending;
  bool sorted;
};
using SortFn = void (*)(TensorIter& slices, const SortSpec& spec);

inline DispatchStub<ScatterGatherFn> scatter_gather_stub{"gather/scatter"};
inline DispatchStub<CheckIndicesFn> check_indices_stub{"index check"};
inline DispatchStub<SortFn> sort_stub{"sort"};

}  // namespace ember::kernels
