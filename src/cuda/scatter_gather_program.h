// The CUDA gather / scatter / scatter_add kernel minus the launch: the element of one thread,
// placed by the elementwise offset calculator. Compiled by g++ and nvcc (Note [Emulated GPU
// loop]), so tests/cuda/shape_emulated_test.cpp checks it against the CPU kernel.
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/iter_offsets.h"
#include "kernels/offset_calc.h"
#include "kernels/shape_stubs.h"
#include "kernels/tensor_iter.h"

namespace ember::cuda {

inline constexpr int kScatterGatherThreads = 256;

// Operands [dst, src, index] of kernels/shape_stubs.h's iterator.
template <class index_t>
struct ScatterGatherArgs {
  char* data[3];
  index_t numel;
  kernels::OffsetCalculator<3, index_t> offsets;
  int64_t dim_size, dim_stride;  // the indexed operand's size and byte stride along the dim
};

template <class index_t>
ScatterGatherArgs<index_t> make_scatter_gather_args(const kernels::TensorIter& it, int64_t dim_size,
                                                    int64_t dim_stride) {
  ScatterGatherArgs<index_t> args{};
  for (int k = 0; k < 3; ++k) args.data[k] = it.data[k];
  args.numel = static_cast<index_t>(it.numel);
  args.offsets = kernels::make_offset_calculator<3, index_t>(it);
  args.dim_size = dim_size;
  args.dim_stride = dim_stride;
  return args;
}

// scatter_add's sum of one destination and one source element, the CPU kernel's math.
template <class T>
EMBER_HOST_DEVICE inline T scatter_add_value(T dst, T src) {
  using M = kernels::opmath_t<T>;
  return kernels::convert<T>(kernels::Add<M>{M(1)}(static_cast<M>(dst), static_cast<M>(src)));
}

// Element i: gathers or scatters through its index, or returns false (writing nothing) when the
// index, stored to `index`, is outside [0, dim_size). scatter_add's update goes through
// add(T* dst, T src): atomic on the GPU, where several elements may share a destination.
template <class T, kernels::IndexOp op, class index_t, class Add>
EMBER_HOST_DEVICE bool scatter_gather_element(const ScatterGatherArgs<index_t>& args, index_t i,
                                              const Add& add, int64_t& index) {
  const auto at = args.offsets.get(i);
  index = *reinterpret_cast<const int64_t*>(args.data[2] + at.at[2]);
  if (index < 0 || index >= args.dim_size) return false;
  char* dst = args.data[0] + at.at[0];
  const char* src = args.data[1] + at.at[1];
  if constexpr (op == kernels::IndexOp::Gather) {
    *reinterpret_cast<T*>(dst) = *reinterpret_cast<const T*>(src + index * args.dim_stride);
  } else if constexpr (op == kernels::IndexOp::Scatter) {
    *reinterpret_cast<T*>(dst + index * args.dim_stride) = *reinterpret_cast<const T*>(src);
  } else {
    add(reinterpret_cast<T*>(dst + index * args.dim_stride), *reinterpret_cast<const T*>(src));
  }
  return true;
}

}  // namespace ember::cuda
