// Backward formulas of the ops that address storage directly (see view.h).
#include "autograd/functions/view.h"

#include <algorithm>

#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"

namespace ember::autograd::functions {
namespace {

// How many storage elements past its offset a geometry reaches (0 when it has no elements).
int64_t reach(const StridedGeometry& g) {
  int64_t last = 0;
  for (size_t d = 0; d < g.sizes.size(); ++d) {
    if (g.sizes[d] == 0) return 0;
    last += g.strides[d] * (g.sizes[d] - 1);
  }
  return last + 1;
}

// Whether two elements of `g` may share a memory location (PyTorch's _maybe_overlapping_memory):
// taken by increasing stride, each dim must step past everything the smaller ones reach.
bool may_overlap(const StridedGeometry& g) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < g.sizes.size(); ++d)
    if (g.sizes[d] > 1) dims.push_back(d);
  std::sort(dims.begin(), dims.end(),
            [&](size_t a, size_t b) { return g.strides[a] < g.strides[b]; });
  int64_t reached = 0;  // the farthest offset the smaller dims reach
  for (size_t d : dims) {
    if (g.strides[d] <= reached) return true;
    reached += g.strides[d] * (g.sizes[d] - 1);
  }
  return false;
}

}  // namespace

StridedGeometry StridedGeometry::of(const Tensor& t) {
  return StridedGeometry{t.sizes().vec(), t.strides().vec(), t.storage_offset()};
}

Grads AsStridedBackward0::operator()(const Context& c) const {
  const Tensor& grad = c.grad();
  // A flat tensor stands for the storage both geometries address, from the lower offset.
  const int64_t from = std::min(input.offset, output.offset);
  const int64_t length =
      std::max(input.offset + reach(input), output.offset + reach(output)) - from;
  const Tensor slots = arange(length, TensorOptions(kInt64).device(grad.device()));
  const auto positions = [&](const StridedGeometry& g) {
    return slots.as_strided(g.sizes, g.strides, g.offset - from).reshape(-1);
  };
  // Each memory location receives the gradient of every output element sitting there...
  Tensor storage =
      zeros({length}, grad.options()).scatter_add(0, positions(output), grad.reshape(-1));
  if (may_overlap(input)) {
    // ... which the input elements sharing it split (locations the input does not see divide by
    // zero; the input's geometry never reads them).
    const Tensor seen = positions(input);
    const Tensor count =
        zeros({length}, grad.options()).scatter_add(0, seen, ones({seen.numel()}, grad.options()));
    storage = storage / count;
  }
  return Grads{storage.as_strided(input.sizes, input.strides, input.offset - from)};
}

Grads CopySlices::operator()(const Context& c) const {
  // The gradient laid out as the base, so that the view's geometry finds the view's elements.
  Tensor grad = empty_strided(base.sizes, base.strides, c.grad().options());
  grad.copy_(c.grad());
  const Tensor in_view = grad.as_strided(view.sizes, view.strides, view.offset - base.offset);
  Grads grads(2);
  if (c.needs(1)) grads[1] = in_view.clone();
  if (c.needs(0)) {
    in_view.zero_();  // overwritten by the in-place op: no gradient to what was there before
    grads[0] = std::move(grad);
  }
  return grads;
}

}  // namespace ember::autograd::functions
