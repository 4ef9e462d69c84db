// Selection by a mask or by index tensors: nonzero, masked_select and Tensor::index's tensor
// step. They are built from the scan, scatter and gather kernels, so every device runs them.
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

// The mask's positions in x's dims [dim, dim + mask.dim()), flattened into one dim.
Tensor select_by_mask(const Tensor& x, int64_t dim, const Tensor& mask) {
  for (int64_t i = 0; i < mask.dim(); ++i) {
    EMBER_CHECK_T(IndexError, mask.size(i) == x.size(dim + i), "[index] The shape of the mask ",
                  mask.sizes(), " at index ", i, " does not match the shape of the indexed tensor ",
                  x.sizes(), " at index ", dim + i);
  }
  // A 0-dim mask adds a dim of one element (true) or none (false), as Python's x[True].
  Tensor flat = mask.dim() == 0 ? x.unsqueeze(dim) : x.flatten(dim, dim + mask.dim() - 1);
  return ops::index_select_as(kAdvancedIndex, flat, dim, true_positions(mask.reshape({-1})));
}

// x's dim `dim` indexed by the integers of `index`, whose shape replaces that dim.
Tensor select_by_integers(const Tensor& x, int64_t dim, const Tensor& index) {
  EMBER_CHECK_T(TypeError, index.dtype() == kInt64 || index.dtype() == kInt32,
                "[index] tensors used as indices must be long, int or bool tensors, got ",
                index.dtype());
  EMBER_CHECK_T(IndexError, x.dim() > 0, "[index] a 0-dim tensor cannot be indexed by a tensor "
                "of integers; use a bool mask or .item()");
  return ops::index_select_as(kAdvancedIndex, x, dim, where(index < 0, index + x.size(dim), index));
}

}  // namespace

Tensor ops::index_with_tensor(const Tensor& x, int64_t dim, const Tensor& index) {
  // Indices may live on the CPU whatever x's device, as in PyTorch; a GPU index of a CPU tensor
  // would need a copy the user did not ask for.
  EMBER_CHECK_T(ValueError, index.device() == x.device() || index.is_cpu(),
                "[index] indices should be either on cpu or on the same device as the indexed "
                "tensor (", x.device(), "), got indices on ", index.device());
  Tensor local = index.to(x.device());
  return index.dtype() == kBool ? select_by_mask(x, dim, local)
                                : select_by_integers(x, dim, local);
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
