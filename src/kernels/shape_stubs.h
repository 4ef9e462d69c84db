// Kernel entry points of the shape ops (gather/scatter, index range, sort); the front halves
// in src/ops/ build the geometry, the backends fill the stubs.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "kernels/dispatch_stub.h"
#include "kernels/tensor_iter.h"

namespace ember::kernels {

// Operands of the iterator: [dst, src, index], all of the index's shape. The indexed operand
// (src for Gather, dst for the scatters) is restrided with stride 0 along the op's dim, so
// element i is reached at its pointer plus index[i] * dim_stride bytes.
enum class IndexOp { Gather, Scatter, ScatterAdd };
// Returns an index outside [0, dim_size) if there is one (nothing is promised about what was
// written then), so the front half can name it.
using ScatterGatherFn = std::optional<int64_t> (*)(TensorIter&, IndexOp, int64_t dim_size,
                                                   int64_t dim_stride);

// (min, max) of a non-empty int64 tensor (one_hot's class checks).
using IndexRangeFn = std::pair<int64_t, int64_t> (*)(const Tensor& index);

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

extern DispatchStub<ScatterGatherFn> scatter_gather_stub;
extern DispatchStub<IndexRangeFn> index_range_stub;
extern DispatchStub<SortFn> sort_stub;

}  // namespace ember::kernels
