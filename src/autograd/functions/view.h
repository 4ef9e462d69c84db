// Backward formulas of the ops that address a tensor's storage directly: as_strided
// (ops/view.cpp), and CopySlices, which an in-place op on a view gives the view's base
// (Note [Views in autograd], autograd/view_history.h). Neither saves a tensor.
#pragma once

#include <cstdint>
#include <vector>

#include "autograd/record.h"

namespace ember::autograd::functions {

// Where a tensor's elements sit in its storage: all that as_strided needs to find them again.
struct StridedGeometry {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;  // in elements, from the storage's start

  static StridedGeometry of(const Tensor& t);
};

// AsStridedBackward0: the gradient written where the output's elements sit in the storage, read
// back with the input's geometry. Elements the output shares add up; elements the input shares
// split what their memory received, as PyTorch's as_strided_backward.
struct AsStridedBackward0 {
  static constexpr const char* kName = "AsStridedBackward0";
  StridedGeometry input, output;
  Grads operator()(const Context& c) const;
};

// CopySlices: the history of a base after an in-place op on its view. Its inputs are the base's
// old history and the view's new values; the first gets the gradient with the view's elements
// zeroed (they were overwritten), the second the view's elements of the gradient.
struct CopySlices {
  static constexpr const char* kName = "CopySlices";
  StridedGeometry base, view;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
