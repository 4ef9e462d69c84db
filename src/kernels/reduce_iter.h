// ReduceIter: the geometry of a reduction. The input's dims split into kept dims (one output
// element each) and reduced dims (folded into that element); each group is coalesced, size-1
// dims are dropped, and strides are in elements. The CPU and CUDA reduce loops both consume it.
#pragma once

#include <cstdint>

#include "core/tensor_impl.h"
#include "ember/tensor.h"

namespace ember::kernels {

struct ReduceIter {
  const char* input = nullptr;
  DType input_dtype = kFloat32;
  char* values = nullptr;      // the reduced values; null when only indices are wanted (argmax)
  DType values_dtype = kFloat32;
  int64_t* indices = nullptr;  // max/min along a dim and argmax/argmin; null otherwise
  Device device;

  // Index 0 is the innermost (fastest-moving) dim of each group. nreduced is at least 1.
  int nkept = 0;
  int64_t kept_size[detail::kMaxDims];
  int64_t kept_in_stride[detail::kMaxDims];
  int64_t kept_out_stride[detail::kMaxDims];
  int nreduced = 0;
  int64_t reduced_size[detail::kMaxDims];
  int64_t reduced_stride[detail::kMaxDims];

  int64_t num_outputs = 1;
  int64_t reduced_numel = 1;

  // Input and output offsets of output element `o` (row-major over the kept dims).
  void kept_offsets(int64_t o, int64_t* in_offset, int64_t* out_offset) const {
    int64_t in = 0, out = 0;
    for (int d = 0; d < nkept; ++d) {
      int64_t i = o % kept_size[d];
      o /= kept_size[d];
      in += i * kept_in_stride[d];
      out += i * kept_out_stride[d];
    }
    *in_offset = in;
    *out_offset = out;
  }
};

// Builds the geometry of reducing `input` over the dims flagged in `reduced` (one flag per dim)
// into `values` and/or `indices`, contiguous tensors of the kept dims' shape (either may be
// undefined). Reduced dims may be reordered by stride for speed; the flat reduced index that
// ops see is row-major only when a single dim remains after coalescing, which is what the index
// ops (argmax, max along a dim) guarantee.
ReduceIter make_reduce_iter(const Tensor& input, const bool* reduced, const Tensor& values,
                            const Tensor& indices);

}  // namespace ember::kernels
