// ReduceIter: a reduction's operands and its geometry (kernels/reduce_geometry.h). The CPU and
// CUDA reduce loops both consume it.
#pragma once

#include <cstdint>

#include "core/tensor_impl.h"
#include "ember/tensor.h"
#include "kernels/reduce_geometry.h"

namespace ember::kernels {

struct ReduceIter {
  const char* input = nullptr;
  ScalarType input_dtype = kFloat32;
  char* values = nullptr;  // the reduced values; null when only indices are wanted (argmax)
  ScalarType values_dtype = kFloat32;
  int64_t* indices = nullptr;  // max/min along a dim and argmax/argmin; null otherwise
  Device device;
  ReduceGeometry geometry;
};

// Builds the iterator of reducing `input` over the dims flagged in `reduced` (one flag per dim)
// into `values` and/or `indices`, contiguous tensors of the kept dims' shape (either may be
// undefined). Reduced dims may be reordered by stride for speed; the flat reduced index that
// ops see is row-major only when a single dim remains after coalescing, which is what the index
// ops (argmax, max along a dim) guarantee. Exported for the emulated-GPU tests, which run the
// CUDA reduction on the geometry the library really builds.
ReduceIter make_reduce_iter(const Tensor& input, const bool* reduced, const Tensor& values,
                            const Tensor& indices);

}  // namespace ember::kernels
