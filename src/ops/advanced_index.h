// The geometry of Python's advanced indexing (Note [Advanced indexing geometry] in
// advanced_index.cpp): what Tensor::index and index_put_ hand the gather/scatter kernel.
// Exported for the emulated-GPU tests, which run the CUDA loop on it.
#pragma once

#include <vector>

#include "ember/tensor.h"

namespace ember::ops {

struct AdvancedIndex {
  Tensor strided;  // the view with the result's shape, stride 0 along the indices' shape
  Tensor offsets;  // int64 element offsets from the view's start, expanded to the result's shape
  std::vector<Tensor> positions;  // per dim of the view: its wrapped int64 index, or undefined
};

// `view` indexed by `tensors`, one per dim of the view (undefined where none; a k-dim mask at the
// first of the k dims it covers). Checks every index; errors name `op` (a string literal).
AdvancedIndex advanced_index(const char* op, const Tensor& view,
                             const std::vector<Tensor>& tensors);

}  // namespace ember::ops
