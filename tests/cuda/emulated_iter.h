// The TensorIter the front halves build (make_iter is internal to libember), for tests that run
// the CUDA kernels' per-thread functions on the host.
#pragma once

#include <vector>

#include "ember/ember.h"
#include "kernels/tensor_iter.h"

namespace ember::test {

// The geometry make_iter builds (which is internal to libember), without dimension coalescing:
// innermost dim first, byte strides, broadcast dims at stride 0, 0-dim as one element.
inline kernels::TensorIter iter_for(const Tensor& out, const std::vector<Tensor>& inputs) {
  kernels::TensorIter it;
  it.device = out.device();
  it.operands[0] = out;
  it.ntensors = 1;
  for (const Tensor& t : inputs) it.operands[it.ntensors++] = t.expand(out.sizes());
  it.numel = out.numel();
  it.ndim = static_cast<int>(out.dim());
  for (int k = 0; k < it.ntensors; ++k) {
    const Tensor& t = it.operands[k];
    it.data[k] = static_cast<char*>(t.data_ptr());
    it.dtypes[k] = t.dtype();
    for (int d = 0; d < it.ndim; ++d) {
      it.shape[d] = t.size(it.ndim - 1 - d);
      it.strides[k][d] = t.stride(it.ndim - 1 - d) * static_cast<int64_t>(t.element_size());
    }
  }
  if (it.ndim == 0) {
    it.ndim = 1;
    it.shape[0] = 1;
    for (int k = 0; k < it.ntensors; ++k) it.strides[k][0] = 0;
  }
  return it;
}

}  // namespace ember::test
