// Selection by a mask or by index tensors: nonzero, masked_select, Tensor::index's tensor step
// and Tensor::index_put_. They are built from the scan, scatter and gather kernels, so every
// device runs them.
//
// Note [Compacting a mask]
// The positions of a mask's true elements come from a running count: the k-th true element
// (counting from 1) has count k at its position, so it is scattered to slot k - 1; every false
// element goes to one extra slot past the end, which is dropped. The last count is the result's
// length, which the host must know to allocate it: on a GPU that is one wait, as in PyTorch.
#include <vector>

#include "autograd/functions/index.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/tensor_iter.h"
#include "ops/promotion.h"
#include "ops/shape_util.h"

namespace ember {
namespace {

// The positions of the true elements of a 1-D bool tensor, ascending, as int64.
Tensor true_positions(const Tensor& flat_mask) {
  const TensorOptions longs = TensorOptions(kInt64).device(flat_mask.device());
  const int64_t n = flat_mask.numel();
  if (n == 0) return empty({0}, longs);
  Tensor count = cumsum(flat_mask, 0, kInt64);
  const int64_t selected = count.select(0, n - 1).item<int64_t>();
  Tensor slot = where(flat_mask, count - 1, selected);
  return scatter(zeros({selected + 1}, longs), 0, slot, arange(n, longs)).narrow(0, 0, selected);
}

// Advanced indices count from the end when negative, so the value a bound check sees was
// wrapped once by the index's size: the error reports the value the user wrote.
[[noreturn]] void advanced_index_out_of_bounds(const kernels::IndexBounds& bounds, int64_t value,
                                               const char* note) {
  kernels::index_out_of_bounds(bounds, value < 0 ? value - bounds.size : value, note);
}

void check_mask_shape(const char* op, const Tensor& x, int64_t dim, const Tensor& mask) {
  for (int64_t i = 0; i < mask.dim(); ++i) {
    EMBER_CHECK_T(IndexError, mask.size(i) == x.size(dim + i), "[", op, "] The shape of the mask ",
                  mask.sizes(), " at index ", i, " does not match the shape of the indexed tensor ",
                  x.sizes(), " at index ", dim + i);
  }
}

// PyTorch's rule for x[index] = value: value, without its leading dims of size 1, broadcasts to
// the shape x[index] has.
Tensor value_for(const Tensor& value, IntArrayRef target) {
  Tensor v = value;
  while (v.dim() > static_cast<int64_t>(target.size()) && v.size(0) == 1) v = v.squeeze(0);
  bool fits = v.dim() <= static_cast<int64_t>(target.size());
  for (size_t i = 1; fits && i <= static_cast<size_t>(v.dim()); ++i) {
    const int64_t n = v.sizes()[v.sizes().size() - i];
    fits = n == 1 || n == target[target.size() - i];
  }
  EMBER_CHECK_T(ValueError, fits, "[index_put_] shape mismatch: value tensor of shape ",
                value.sizes(), " cannot be broadcast to indexing result of shape ", target);
  return v.expand(target);
}

// Indices may live on the CPU whatever x's device, as in PyTorch; a GPU index of a CPU tensor
// would need a copy the user did not ask for.
Tensor on_device_of(const char* op, const Tensor& x, const Tensor& index) {
  EMBER_CHECK_T(ValueError, index.device() == x.device() || index.is_cpu(), "[", op,
                "] indices should be either on cpu or on the same device as the indexed tensor (",
                x.device(), "), got indices on ", index.device());
  return index.to(x.device());
}

// `target` with `value` (broadcast to positions' shape) written at the flat positions
// `positions` of its elements, out of place.
Tensor scattered(const Tensor& target, const Tensor& positions, const Tensor& value) {
  Tensor src = value_for(value, positions.sizes()).to(target.scalar_type()).reshape({-1});
  return scatter(target.reshape({-1}), 0, positions.reshape({-1}), src).view(target.sizes());
}

// A tensor of t's flat positions, shaped like t.
Tensor flat_positions(const Tensor& t) {
  return arange(t.numel(), TensorOptions(kInt64).device(t.device())).view(t.sizes());
}

}  // namespace

Tensor ops::index_with_tensor(const Tensor& x, int64_t dim, const Tensor& index, const char* op) {
  const Tensor local = on_device_of(op, x, index);
  const IndexSelectAs as{op, "IndexBackward0", &advanced_index_out_of_bounds, true};
  if (local.scalar_type() == kBool) {  // the mask's dims become one, of its true positions
    check_mask_shape(op, x, dim, local);
    // A 0-dim mask adds a dim of one element (true) or none (false), as Python's x[True].
    Tensor merged = local.dim() == 0 ? x.unsqueeze(dim) : x.flatten(dim, dim + local.dim() - 1);
    return index_select_as(as, merged, dim, true_positions(local.reshape({-1})));
  }
  EMBER_CHECK_T(TypeError, local.scalar_type() == kInt64 || local.scalar_type() == kInt32, "[", op,
                "] tensors used as indices must be long, int or bool tensors, got ",
                local.scalar_type());
  // Advanced indices count from the end when negative.
  return index_select_as(as, x, dim, where(local < 0, local + x.size(dim), local));
}

Tensor ops::index_as(const Tensor& x, std::initializer_list<TensorIndex> indices, const char* op) {
  BasicIndexed r = apply_basic_indices(x, indices, op);
  return r.tensor_index ? index_with_tensor(r.view, r.tensor_dim, *r.tensor_index, op) : r.view;
}

// Note [index_put_ through positions]
// Integers, slices, None and an ellipsis select a view of x, into which value is copied; one
// number written through a bool mask is a masked_fill_ of the view, as in PyTorch. Otherwise a
// tensor index selects positions of that view: they are found by indexing a tensor of the
// view's flat positions (arange(numel) shaped like it) with the tensor index, value is
// scattered to them in a copy of the view, and the copy is written back. Under autograd the
// same is done with x's own positions and x itself is written, since autograd takes an
// in-place write to x but not to a view of it; the scatter and copy_ give the gradients. The
// time and memory grow with the view (with x under autograd), not with the selection.
Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value) {
  detail::defined_impl(detail::impl_of(value), "index_put_");
  ops::BasicIndexed r = ops::apply_basic_indices(*this, indices, "index_put_");
  const Tensor* index = r.tensor_index;
  // As PyTorch: through an index tensor, value must have x's dtype, unless it is one CPU number
  // written through a bool mask (PyTorch's masked_fill path); into a plain view it converts.
  const bool fill =
      index && index->dtype() == kBool && index->dim() > 0 && value.numel() == 1 && value.is_cpu();
  EMBER_CHECK_T(TypeError, !index || fill || value.scalar_type() == scalar_type(),
                "[index_put_] Index put requires the source and destination dtypes match, got ",
                scalar_type(), " for the destination and ", value.scalar_type(), " for the source");
  // A 0-dim CPU value is a number, as in PyTorch; any other must be on this tensor's device.
  const Tensor v = value.dim() == 0 && value.is_cpu() ? value.to(device()) : value;
  kernels::common_device("index_put_", {this, &v}, {"self", "value"});
  const bool grad = autograd::needs_grad(*this, v);
  if (fill && !value.requires_grad() && (!grad || r.view.is_same(*this))) {
    // PyTorch's masked_fill path, in place: the mask, with a 1 for each dim after those it
    // covers, broadcasts over the view.
    check_mask_shape("index_put_", r.view, r.tensor_dim, *index);
    std::vector<int64_t> shape = index->sizes().vec();
    shape.resize(static_cast<size_t>(r.view.dim() - r.tensor_dim), 1);
    r.view.masked_fill_(on_device_of("index_put_", r.view, *index).reshape(shape), value.item());
  } else if (grad) {
    autograd::check_inplace(*this, "index_put_", v.requires_grad());  // refusals name index_put_
    copy_(scattered(*this, ops::index_as(flat_positions(*this), indices, "index_put_"), v));
  } else if (!index) {
    r.view.copy_(value_for(v, r.view.sizes()));
  } else {
    r.view.copy_(scattered(
        r.view, ops::index_with_tensor(flat_positions(r.view), r.tensor_dim, *index, "index_put_"),
        v));
  }
  return *this;
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, Scalar value) {
  ops::check_fits("index_put_", value, scalar_type());
  return index_put_(indices, ops::scalar_to_tensor(value, scalar_type(), device()));
}

Tensor nonzero(const Tensor& x) {
  const TensorOptions longs = TensorOptions(kInt64).device(x.device());
  Tensor flat = true_positions(ne(x, 0).reshape({-1}));  // ne's result is contiguous: no copy
  const int64_t count = flat.numel();
  if (x.dim() == 0 || count == 0) return empty({count, x.dim()}, longs);
  // Row-major coordinates of each flat position, one column per dim.
  std::vector<Tensor> coords(static_cast<size_t>(x.dim()));
  Tensor rest = flat;
  for (int64_t d = x.dim() - 1; d > 0; --d) {
    coords[d] = remainder(rest, x.size(d));
    rest = floor_divide(rest, x.size(d));
  }
  coords[0] = rest;
  return stack(coords, 1);
}

Tensor masked_select(const Tensor& x, const Tensor& mask) {
  EMBER_CHECK_T(TypeError, mask.scalar_type() == kBool,
                "[masked_select] masked_select: expected BoolTensor for mask, got ",
                mask.scalar_type());
  kernels::common_device("masked_select", {&x, &mask}, {"self", "mask"});
  int64_t shape[detail::kMaxDims];
  int nd = 0;
  kernels::broadcast_shapes("masked_select", x.sizes(), mask.sizes(), shape, &nd);
  const IntArrayRef both(shape, static_cast<size_t>(nd));
  Tensor positions = true_positions(mask.expand(both).reshape({-1}));
  const bool grad = autograd::needs_grad(x);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = index_select(x.expand(both).reshape({-1}), 0, positions);
  }
  if (grad)  // each selected element's gradient goes back to its position; the engine sums it
             // over the dims that x was broadcast along
    autograd::record({out}, {x}, {positions},
                     autograd::functions::MaskedSelectBackward0{both.vec()});
  return out;
}

}  // namespace ember
