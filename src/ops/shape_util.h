// Helpers shared by the shape-op front halves (index.cpp, sort.cpp, advanced_index.cpp).
#pragma once

#include <initializer_list>

#include "ember/tensor.h"
#include "kernels/index_bounds.h"

namespace ember::ops {

// PyTorch's gather, scatter, sort and topk treat a 0-dim tensor as one of shape [1]: a view.
inline Tensor at_least_1d(const Tensor& t) { return t.dim() == 0 ? t.view({1}) : t; }

// index_select as another op: its name in errors, its grad_fn's name, its out-of-bounds error, and
// whether the index's own shape takes the place of the indexed dim (Python's x[:, idx]) rather
// than its element count (index_select, which takes only vectors).
struct IndexSelectAs {
  const char* op;  // a string literal (the bounds carry it into GPU kernels)
  const char* backward;
  kernels::RaiseOutOfBounds raise;
  bool index_shape_replaces_dim;
};
Tensor index_select_as(const IndexSelectAs& as, const Tensor& x, int64_t dim, const Tensor& index);

// Tensor::index / index_put_ with their integer, slice, None and ellipsis indices applied: a view
// of `self`, and the one tensor index (if any) left to apply at dim `tensor_dim` of that view.
struct BasicIndexed {
  Tensor view;
  const Tensor* tensor_index;  // points into the caller's index list
  int64_t tensor_dim;
};
BasicIndexed apply_basic_indices(const Tensor& self, std::initializer_list<TensorIndex> indices,
                                 const char* op);

// The step for a tensor index at dim `dim` of `x`: a bool mask selects along as many dims as it
// has, an integer tensor along one (negative values count from the end); the selected positions
// replace those dims, as Python's x[..., index] with one advanced index. `op` names the errors.
Tensor index_with_tensor(const Tensor& x, int64_t dim, const Tensor& index, const char* op);

// x.index(indices), with errors naming `op` (a string literal).
Tensor index_as(const Tensor& x, std::initializer_list<TensorIndex> indices, const char* op);

}  // namespace ember::ops
