// Selection by a mask or by index tensors: nonzero, masked_select, and Python's advanced
// indexing (Tensor::index / index_put_ with tensor indices). nonzero and masked_select are built
// from the scan, scatter and gather kernels; advanced indexing runs the gather/scatter kernel on
// one offset per selected element. Every device runs them.
//
// Note [Compacting a mask]
// The positions of a mask's true elements come from a running count: the k-th true element
// (counting from 1) has count k at its position, so it is scattered to slot k - 1; every false
// element goes to one extra slot past the end, which is dropped. The last count is the result's
// length, which the host must know to allocate it: on a GPU that is one wait, as in PyTorch.
//
// Note [Advanced indexing geometry]
// As PyTorch's: the tensor indices (a k-dim mask as the k coordinate columns of its true
// elements) broadcast together to one shape B. If the dims they index are adjacent, B takes their
// place in the result; otherwise B comes first, followed by the other dims. A result element is
// the view's element at storage offset sum_k index_k * stride_k plus its offset along the other
// dims. So the view seen with the result's shape and stride 0 along B, together with one int64
// offset per element of B (expanded to the result's shape), is what the gather/scatter kernel
// walks (kernels/shape_stubs.h, with one element as its dim stride). index() costs the result,
// and index_put_ writes the selected elements of the view in place: its cost grows with the
// selection, not with the view. Each index is checked against its own dim before the offsets are
// summed, so the kernel's own bound (the largest offset) never fails.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "autograd/functions/advanced_index.h"
#include "autograd/functions/index.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/shape_stubs.h"
#include "kernels/tensor_iter.h"
#include "ops/advanced_index.h"
#include "ops/inplace.h"
#include "ops/promotion.h"
#include "ops/shape_util.h"

namespace ember {
namespace {

namespace functions = autograd::functions;
using kernels::IndexOp;
using ops::advanced_index;
using ops::AdvancedIndex;
using PositionList = List<std::optional<Tensor>>;

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

// The coordinates along each dim of a tensor of shape `sizes` of its row-major flat positions
// `flat`, one tensor of flat's shape per dim.
std::vector<Tensor> row_major_coordinates(const Tensor& flat, IntArrayRef sizes) {
  std::vector<Tensor> coords(sizes.size());
  Tensor rest = flat;
  for (size_t d = sizes.size(); d-- > 1;) {
    coords[d] = remainder(rest, sizes[d]);
    rest = floor_divide(rest, sizes[d]);
  }
  if (!coords.empty()) coords[0] = rest;
  return coords;
}

// Advanced indices count from the end when negative, so the value a bound check sees was
// wrapped once by the index's size: the error reports the value the user wrote.
[[noreturn]] void advanced_index_out_of_bounds(const kernels::IndexBounds& bounds, int64_t value,
                                               const char* note) {
  kernels::index_out_of_bounds(bounds, value < 0 ? value - bounds.size : value, note);
}

void check_mask_shape(const char* op, const Tensor& x, int64_t dim, const Tensor& mask) {
  EMBER_CHECK_T(IndexError, dim + mask.dim() <= x.dim(), "[", op,
                "] too many indices for tensor of dimension ", x.dim());
  for (int64_t i = 0; i < mask.dim(); ++i) {
    EMBER_CHECK_T(IndexError, mask.size(i) == x.size(dim + i), "[", op, "] The shape of the mask ",
                  mask.sizes(), " at index ", i, " does not match the shape of the indexed tensor ",
                  x.sizes(), " at index ", dim + i);
  }
}

// PyTorch's rule for x[index] = value: value, without its leading dims of size 1, broadcasts to
// the shape x[index] has.
Tensor value_for(const char* op, const Tensor& value, IntArrayRef target) {
  Tensor v = value;
  while (v.dim() > static_cast<int64_t>(target.size()) && v.size(0) == 1) v = v.squeeze(0);
  bool fits = v.dim() <= static_cast<int64_t>(target.size());
  for (size_t i = 1; fits && i <= static_cast<size_t>(v.dim()); ++i) {
    const int64_t n = v.sizes()[v.sizes().size() - i];
    fits = n == 1 || n == target[target.size() - i];
  }
  EMBER_CHECK_T(ValueError, fits, "[", op, "] shape mismatch: value tensor of shape ",
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

// The int64 index of each dim of x that a tensor indexes: a mask's true positions, one
// coordinate column per dim it covers.
std::vector<Tensor> long_indices(const char* op, const Tensor& x,
                                 const std::vector<Tensor>& tensors) {
  std::vector<Tensor> per_dim(tensors.size());
  for (size_t d = 0; d < tensors.size(); ++d) {
    if (!tensors[d].defined()) continue;
    const Tensor t = on_device_of(op, x, tensors[d]);
    if (t.scalar_type() == kBool) {
      check_mask_shape(op, x, static_cast<int64_t>(d), t);
      per_dim.resize(std::max(per_dim.size(), d + static_cast<size_t>(t.dim())));
      const Tensor coords = nonzero(t);
      for (int64_t j = 0; j < t.dim(); ++j)
        per_dim[d + static_cast<size_t>(j)] = coords.select(1, j);
      continue;
    }
    EMBER_CHECK_T(TypeError, t.scalar_type() == kInt64 || t.scalar_type() == kInt32, "[", op,
                  "] tensors used as indices must be long, int or bool tensors, got ",
                  t.scalar_type());
    per_dim[d] = t.to(kInt64);
  }
  return per_dim;
}

// The shape every index broadcasts to, or PyTorch's IndexError naming all of them.
std::vector<int64_t> broadcast_indices(const char* op, const std::vector<Tensor>& per_dim) {
  std::vector<int64_t> shape;
  bool fits = true;
  for (const Tensor& t : per_dim) {
    if (!t.defined()) continue;
    if (t.dim() > static_cast<int64_t>(shape.size()))
      shape.insert(shape.begin(), static_cast<size_t>(t.dim()) - shape.size(), 1);
    for (int64_t i = 1; i <= t.dim(); ++i) {
      int64_t& into = shape[shape.size() - static_cast<size_t>(i)];
      const int64_t n = t.size(-i);
      if (into == 1) into = n;
      else fits = fits && (n == 1 || n == into);
    }
  }
  if (fits) return shape;
  std::string shapes;
  for (const Tensor& t : per_dim)
    if (t.defined()) shapes += str(shapes.empty() ? "" : ", ", t.sizes());
  detail::fail<IndexError>("[", op,
                           "] shape mismatch: indexing tensors could not be broadcast together "
                           "with shapes ",
                           shapes,
                           "; tensor indices pair up elementwise: give them shapes that broadcast "
                           "(rows.view({-1, 1}) with cols selects every row-column pair)");
}

}  // namespace

// Note [Advanced indexing geometry]
ops::AdvancedIndex ops::advanced_index(const char* op, const Tensor& view,
                                       const std::vector<Tensor>& tensors) {
  AdvancedIndex a{Tensor(), Tensor(), long_indices(op, view, tensors)};
  const std::vector<int64_t> index_shape = broadcast_indices(op, a.positions);
  std::vector<int64_t> indexed;  // the dims of the view that an index names
  Tensor offsets;
  for (size_t d = 0; d < a.positions.size(); ++d) {
    Tensor& p = a.positions[d];
    if (!p.defined()) continue;
    const int64_t size = view.size(static_cast<int64_t>(d));
    p = where(p < 0, p + size, p);
    const int64_t ordinal = static_cast<int64_t>(indexed.size());  // PyTorch names the dim so
    kernels::check_indices_stub(p.device().type(), p,
                                {op, ordinal, size, &advanced_index_out_of_bounds});
    p = p.expand(index_shape);
    const Tensor step = p * view.stride(static_cast<int64_t>(d));
    offsets = offsets.defined() ? offsets + step : step;
    indexed.push_back(static_cast<int64_t>(d));
  }
  const bool adjacent =
      indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  const size_t at = adjacent ? static_cast<size_t>(indexed.front()) : 0;  // where B goes
  std::vector<int64_t> shape, strides, offset_shape;
  for (int64_t d = 0; d < view.dim(); ++d) {
    const bool is_indexed = static_cast<size_t>(d) < a.positions.size() &&
                            a.positions[static_cast<size_t>(d)].defined();
    if (is_indexed) continue;
    shape.push_back(view.size(d));
    strides.push_back(view.stride(d));
  }
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(at), index_shape.begin(),
               index_shape.end());
  strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(at), index_shape.size(), 0);
  offset_shape.assign(shape.size(), 1);
  std::copy(index_shape.begin(), index_shape.end(),
            offset_shape.begin() + static_cast<std::ptrdiff_t>(at));
  a.strided =
      Tensor(detail::view_impl(*detail::impl_of(view), shape, strides, view.storage_offset()));
  a.offsets = offsets.reshape(offset_shape).expand(shape);
  return a;
}

namespace {

// Runs the gather/scatter kernel on [dst, src, offsets] (Note [Advanced indexing geometry]).
void run_offsets_kernel(IndexOp kind, const char* op, const Tensor& dst, const Tensor& src,
                        const Tensor& offsets) {
  if (dst.numel() == 0) return;
  kernels::TensorIter it =
      kernels::make_iter({op, dst.scalar_type(), dst.scalar_type(), false, {"src", "index"}, false},
                         dst, {src, offsets});
  const kernels::IndexBounds any_offset =
      kernels::bounds_of(op, 0, std::numeric_limits<int64_t>::max());
  kernels::scatter_gather_stub(it.device_type(), it, kind, any_offset,
                               static_cast<int64_t>(elementSize(dst.scalar_type())));
}

// The saved tensors and dims of the autograd nodes: the defined positions.
std::vector<Tensor> defined_positions(const AdvancedIndex& a, std::vector<int64_t>* dims) {
  std::vector<Tensor> saved;
  for (size_t d = 0; d < a.positions.size(); ++d) {
    if (!a.positions[d].defined()) continue;
    saved.push_back(a.positions[d]);
    dims->push_back(static_cast<int64_t>(d));
  }
  return saved;
}

// view[tensors] (Python's advanced indexing), recorded as IndexBackward0.
Tensor index_by_tensors(const char* op, const Tensor& view, const std::vector<Tensor>& tensors) {
  const AdvancedIndex a = advanced_index(op, view, tensors);
  Tensor out = empty(a.strided.sizes(), view.options());
  run_offsets_kernel(IndexOp::Gather, op, out, a.strided, a.offsets);
  if (autograd::needs_grad(view)) {
    functions::IndexBackward0 backward{view.sizes().vec(), {}};
    const std::vector<Tensor> saved = defined_positions(a, &backward.dims);
    autograd::record({out}, {view}, saved, std::move(backward));
  }
  return out;
}

// Writes value into the elements of `self` that `tensors` select, adding with accumulate. Under
// autograd the write goes to a clone of self, which then replaces self's values and history
// (Note [In-place ops under autograd]; a view's base gets CopySlices).
void put_by_tensors(const char* op, const Tensor& self, const std::vector<Tensor>& tensors,
                    const Tensor& value, bool accumulate) {
  EMBER_CHECK_T(TypeError, value.scalar_type() == self.scalar_type(), "[", op,
                "] Index put requires the source and destination dtypes match, got ",
                self.scalar_type(), " for the destination and ", value.scalar_type(),
                " for the source");
  // A 0-dim CPU value is a number, as in PyTorch; any other must be on self's device.
  const Tensor v = value.dim() == 0 && value.is_cpu() ? value.to(self.device()) : value;
  kernels::common_device(op, {&self, &v}, {"self", "value"});
  const IndexOp kind = accumulate ? IndexOp::ScatterAdd : IndexOp::Scatter;
  if (!autograd::needs_grad(self, v)) {
    const AdvancedIndex a = advanced_index(op, self, tensors);
    // A value sharing memory with self is read before any of it is written.
    const Tensor source = value_for(op, v.is_alias_of(self) ? v.clone() : v, a.strided.sizes());
    run_offsets_kernel(kind, op, a.strided, source, a.offsets);
    ++detail::impl_of(self)->storage->version;
    return;
  }
  autograd::check_inplace(self, op, v.requires_grad());
  ops::inplace_through_clone(op, self, [&](const Tensor& clone) {
    const AdvancedIndex a = advanced_index(op, clone, tensors);
    Tensor out = clone.detach();
    {
      autograd::NoGradGuard no_grad;
      run_offsets_kernel(kind, op, a.strided, value_for(op, v, a.strided.sizes()), a.offsets);
    }
    functions::IndexPutBackward0 backward{{}, v.sizes().vec(), accumulate};
    const std::vector<Tensor> saved = defined_positions(a, &backward.dims);
    autograd::record({out}, {clone, v}, saved, std::move(backward));
    return out;
  });
}

// The tensor indices of a List as split_indices leaves them, one per dim: an empty optional is a
// whole dim, and a k-dim mask covers k dims (at::index's expandTensors).
std::vector<Tensor> tensors_of(const char* op, const Tensor& x, const PositionList& indices) {
  std::vector<Tensor> tensors;
  for (const std::optional<Tensor>& t : indices) {
    EMBER_CHECK_T(IndexError, !t || t->scalar_type() != kBool || t->dim() > 0, "[", op,
                  "] a 0-dim bool index adds a dim, which this form cannot: use index({true}) or "
                  "index_put_({true}, value)");
    tensors.push_back(t.value_or(Tensor()));
    if (t && t->scalar_type() == kBool && t->dim() > 1)
      tensors.resize(tensors.size() + static_cast<size_t>(t->dim() - 1));
  }
  EMBER_CHECK_T(IndexError, static_cast<int64_t>(tensors.size()) <= x.dim(), "[", op,
                "] too many indices for tensor of dimension ", x.dim(), " (got ", tensors.size(),
                ")");
  return tensors;
}

int64_t defined_count(const std::vector<Tensor>& tensors) {
  return std::count_if(tensors.begin(), tensors.end(), [](const Tensor& t) { return t.defined(); });
}

}  // namespace

Tensor Tensor::index(std::span<const indexing::TensorIndex> indices) const {
  ops::SplitIndices r = ops::split_indices(*this, indices, "index");
  return defined_count(r.tensors) > 0 ? index_by_tensors("index", r.view, r.tensors) : r.view;
}

Tensor Tensor::index(std::initializer_list<indexing::TensorIndex> indices) const {
  return index(std::span<const indexing::TensorIndex>(indices.begin(), indices.size()));
}

Tensor Tensor::index(const PositionList& indices) const {
  const std::vector<Tensor> tensors = tensors_of("index", *this, indices);
  return defined_count(tensors) > 0 ? index_by_tensors("index", *this, tensors) : *this;
}

// As LibTorch's set_item: a view is copied into; tensor indices write the selected elements.
// One number written through a single bool mask with no gradient to record is a masked_fill_ of
// the view, as in PyTorch, which needs no count of the mask (no wait on a GPU).
Tensor& Tensor::index_put_(std::span<const indexing::TensorIndex> indices, const Tensor& value) {
  detail::defined_impl(detail::impl_of(value), "index_put_");
  ops::SplitIndices r = ops::split_indices(*this, indices, "index_put_");
  if (defined_count(r.tensors) == 0) {
    r.view.copy_(value_for("index_put_", value, r.view.sizes()));
    return *this;
  }
  const Tensor& first = r.tensors.back();  // the only one, when it is a mask
  const bool one_mask =
      first.scalar_type() == kBool && first.dim() > 0 && defined_count(r.tensors) == 1;
  if (one_mask && value.numel() == 1 && value.is_cpu() && !autograd::needs_grad(*this, value)) {
    const int64_t dim = static_cast<int64_t>(r.tensors.size()) - 1;
    check_mask_shape("index_put_", r.view, dim, first);
    // The mask, with a 1 for each dim after those it covers, broadcasts over the view.
    std::vector<int64_t> shape = first.sizes().vec();
    shape.resize(static_cast<size_t>(r.view.dim() - dim), 1);
    r.view.masked_fill_(on_device_of("index_put_", r.view, first).reshape(shape), value.item());
    return *this;
  }
  // The tensor indices write into the view the others made (under autograd, PyTorch's
  // CopySlices when that is a view of self).
  put_by_tensors("index_put_", r.view, r.tensors, value, false);
  return *this;
}

Tensor& Tensor::index_put_(std::span<const indexing::TensorIndex> indices, const Scalar& value) {
  ops::check_fits("index_put_", value, scalar_type());
  return index_put_(indices, ops::scalar_to_tensor(value, scalar_type(), Device(kCPU)));
}

Tensor& Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Tensor& value) {
  return index_put_(std::span<const indexing::TensorIndex>(indices.begin(), indices.size()), value);
}

Tensor& Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Scalar& value) {
  return index_put_(std::span<const indexing::TensorIndex>(indices.begin(), indices.size()), value);
}

Tensor& Tensor::index_put_(const PositionList& indices, const Tensor& values,
                           bool accumulate) const {
  detail::defined_impl(detail::impl_of(values), "index_put_");
  const std::vector<Tensor> tensors = tensors_of("index_put_", *this, indices);
  if (defined_count(tensors) == 0) {  // every dim whole
    const Tensor v = value_for("index_put_", values, sizes());
    return accumulate ? add_(v) : copy_(v);
  }
  put_by_tensors("index_put_", *this, tensors, values, accumulate);
  return ops::handle(*this);
}

Tensor Tensor::index_put(const PositionList& indices, const Tensor& values, bool accumulate) const {
  Tensor out = clone();
  out.index_put_(indices, values, accumulate);
  return out;
}

Tensor nonzero(const Tensor& x) {
  const TensorOptions longs = TensorOptions(kInt64).device(x.device());
  Tensor flat = true_positions(ne(x, 0).reshape({-1}));  // ne's result is contiguous: no copy
  const int64_t count = flat.numel();
  if (x.dim() == 0 || count == 0) return empty({count, x.dim()}, longs);
  return stack(row_major_coordinates(flat, x.sizes()), 1);
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
