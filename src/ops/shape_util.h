// Helpers shared by the shape-op front halves (index.cpp, sort.cpp, view.cpp, advanced_index.cpp).
#pragma once

#include <span>
#include <vector>

#include "ember/tensor.h"

namespace ember::ops {

// PyTorch's gather, scatter, sort and topk treat a 0-dim tensor as one of shape [1]: a view.
inline Tensor at_least_1d(const Tensor& t) { return t.dim() == 0 ? t.view({1}) : t; }

// Tensor::index / index_put_ with their integers, slices, None and ellipsis applied, as
// LibTorch's applySlicing: a view of `self`, and the tensor indices left for the dims of that
// view (undefined where a dim has none; a bool mask sits at the first dim it covers). true and
// false are a new dim indexed by [0] or by nothing.
struct SplitIndices {
  Tensor view;
  std::vector<Tensor> tensors;
};
SplitIndices split_indices(const Tensor& self, std::span<const indexing::TensorIndex> indices,
                           const char* op);

}  // namespace ember::ops
