// Selection by a mask or by index tensors: nonzero, masked_select, Tensor::index's tensor step
// and Tensor::index_put_. They are built from the scan, scatter and gather kernels, so every device runs them.
//
// Note [Compacting a mask]
// The positions of a mask's true elements come from a running count: the k-th true element
// (counting from 1) has count k at its position, so it is scattered to slot k - 1; every false
// element goes to one extra slot past the end, which is dropped. The last count is the result's
// length, which the host must know to allocate it: on a GPU that is one wait, as in PyTorch.
#include <vector>

#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/tensor_iter.h"
#include "kernels/shape_stubs.h"
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

constexpr ops::IndexSelectAs kAdvancedIndex{"index", "IndexBackward0",
                                            &advanced_index_out_of_bounds, true};

void check_mask_shape(const char* op, const Tensor& x, int64_t dim, const Tensor& mask) {
  for (int64_t i = 0; i < mask.dim(); ++i) {
    EMBER_CHECK_T(IndexError, mask.size(i) == x.size(dim + i), "[", op, "] The shape of the mask ",
                  mask.sizes(), " at index ", i, " does not match the shape of the indexed tensor ",
                  x.sizes(), " at index ", dim + i);
  }
}

// x with the dims [dim, dim + mask.dim()) that a mask covers flattened into one; a 0-dim mask
// adds a dim of one element (true) or none (false), as Python's x[True].
Tensor merge_mask_dims(const Tensor& x, int64_t dim, const Tensor& mask) {
  return mask.dim() == 0 ? x.unsqueeze(dim) : x.flatten(dim, dim + mask.dim() - 1);
}

// The mask's positions in x's dims [dim, dim + mask.dim()), flattened into one dim.
Tensor select_by_mask(const Tensor& x, int64_t dim, const Tensor& mask) {
  check_mask_shape("index", x, dim, mask);
  return ops::index_select_as(kAdvancedIndex, merge_mask_dims(x, dim, mask), dim,
                              true_positions(mask.reshape({-1})));
}

void check_integer_index(const char* op, const Tensor& x, const Tensor& index) {
  EMBER_CHECK_T(TypeError, index.dtype() == kInt64 || index.dtype() == kInt32, "[", op,
                "] tensors used as indices must be long, int or bool tensors, got ", index.dtype());
  EMBER_CHECK_T(IndexError, x.dim() > 0, "[", op, "] a 0-dim tensor cannot be indexed by a tensor "
                "of integers; use a bool mask or .item()");
}

// Advanced indices count from the end when negative.
Tensor wrap_negative(const Tensor& index, int64_t size) {
  return where(index < 0, index + size, index);
}

// x's dim `dim` indexed by the integers of `index`, whose shape replaces that dim.
Tensor select_by_integers(const Tensor& x, int64_t dim, const Tensor& index) {
  check_integer_index("index", x, index);
  return ops::index_select_as(kAdvancedIndex, x, dim, wrap_negative(index, x.size(dim)));
}

Tensor on_device_of(const char* op, const Tensor& x, const Tensor& index) {
  // Indices may live on the CPU whatever x's device, as in PyTorch; a GPU index of a CPU tensor
  // would need a copy the user did not ask for.
  EMBER_CHECK_T(ValueError, index.device() == x.device() || index.is_cpu(), "[", op,
                "] indices should be either on cpu or on the same device as the indexed tensor (",
                x.device(), "), got indices on ", index.device());
  return index.to(x.device());
}

// PyTorch's rule for x[index] = value: value broadcasts to the shape x[index] has.
void check_value_shape(IntArrayRef value, IntArrayRef target) {
  bool fits = value.size() <= target.size();
  for (size_t i = 1; fits && i <= value.size(); ++i) {
    const int64_t v = value[value.size() - i];
    fits = v == 1 || v == target[target.size() - i];
  }
  EMBER_CHECK_T(ValueError, fits, "[index_put_] shape mismatch: value tensor of shape ", value,
                " cannot be broadcast to indexing result of shape ", target);
}

// `view` with `value` written where `index` selects along `dim`, as a new tensor: the selected
// positions along the (merged) dim become a scatter's index.
Tensor put_with_tensor(const Tensor& view, int64_t dim, const Tensor& index, const Tensor& value) {
  Tensor local = on_device_of("index_put_", view, index);
  Tensor merged = view, positions;
  std::vector<int64_t> target = view.sizes().vec();  // the shape of view.index({..., index})
  if (local.dtype() == kBool) {
    check_mask_shape("index_put_", view, dim, local);
    merged = merge_mask_dims(view, dim, local);
    positions = true_positions(local.reshape({-1}));
    target = merged.sizes().vec();
    target[dim] = positions.numel();
  } else {
    check_integer_index("index_put_", view, local);
    positions = wrap_negative(local.reshape({-1}), view.size(dim)).to(kInt64);
    target.erase(target.begin() + dim);
    target.insert(target.begin() + dim, local.sizes().begin(), local.sizes().end());
  }
  check_value_shape(value.sizes(), target);
  // Every position must be in range before the scatter, so the error names index_put_.
  kernels::check_indices_stub(positions.device().type(), positions,
                              {"index_put_", dim, merged.size(dim), &advanced_index_out_of_bounds});
  std::vector<int64_t> rows = merged.sizes().vec(), along(merged.dim(), 1);
  rows[dim] = along[dim] = positions.numel();
  Tensor src = value.expand(target).reshape(rows);
  return scatter(merged, dim, positions.view(along).expand(rows), src).view(view.sizes());
}

}  // namespace

Tensor ops::index_with_tensor(const Tensor& x, int64_t dim, const Tensor& index) {
  Tensor local = on_device_of("index", x, index);
  return index.dtype() == kBool ? select_by_mask(x, dim, local)
                                : select_by_integers(x, dim, local);
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value) {
  detail::defined_impl(value.impl(), "index_put_");
  EMBER_CHECK_T(TypeError, value.dtype() == dtype(), "[index_put_] Index put requires the source "
                "and destination dtypes match, got ", dtype(), " for the destination and ",
                value.dtype(), " for the source");
  // A 0-dim CPU value is a number, as in PyTorch; any other must be on this tensor's device.
  const Tensor v = value.dim() == 0 && value.is_cpu() ? value.to(device()) : value;
  kernels::common_device("index_put_", {this, &v}, {"self", "value"});
  ops::BasicIndexed r = ops::apply_basic_indices(*this, indices, "index_put_");
  if (!r.tensor_index) {
    check_value_shape(v.sizes(), r.view.sizes());
    r.view.copy_(v);
  } else {
    r.view.copy_(put_with_tensor(r.view, r.tensor_dim, *r.tensor_index, v));
  }
  return *this;
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, Scalar value) {
  ops::check_fits("index_put_", value, dtype());
  return index_put_(indices, ops::scalar_to_tensor(value, dtype(), device()));
}

Tensor nonzero(const Tensor& x) {
  const TensorOptions longs = TensorOptions(kInt64).device(x.device());
  Tensor flat = true_positions(ne(x.reshape({-1}), 0));
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
  EMBER_CHECK_T(TypeError, mask.dtype() == kBool,
                "[masked_select] masked_select: expected BoolTensor for mask, got ", mask.dtype());
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
    autograd::record("MaskedSelectBackward0", {out}, {x}, {positions},
                     [shape = both.vec()](const autograd::Context& c) {
                       int64_t n = 1;
                       for (int64_t s : shape) n *= s;
                       Tensor z = zeros({n}, c.grad().options());
                       return autograd::Grads{scatter(z, 0, c.saved(0), c.grad()).view(shape)};
                     });
  return out;
}

}  // namespace ember
