// Indexing ops: index_select, gather, scatter, scatter_add (one gather/scatter kernel, see
// kernels/shape_stubs.h) and their methods and in-place forms, masked_fill (through where) and
// one_hot (a scatter into zeros).
#include <algorithm>
#include <vector>

#include "autograd/functions/index.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "kernels/shape_stubs.h"
#include "ops/inplace.h"
#include "ops/promotion.h"
#include "ops/shape_util.h"

namespace ember {
namespace {

namespace functions = autograd::functions;
using kernels::IndexOp;
using ops::at_least_1d;

void check_long_index(const char* op, const Tensor& index) {
  EMBER_CHECK_T(TypeError, index.scalar_type() == kInt64, "[", op,
                "] index must be of dtype Long (int64), got ", index.scalar_type());
}

Tensor strided_view(const Tensor& t, IntArrayRef shape, IntArrayRef strides) {
  return Tensor(detail::view_impl(*detail::impl_of(t), shape, strides, t.storage_offset()));
}

// `t` seen with `shape` and stride 0 along dim: the base each element adds index * stride to.
Tensor restride(const Tensor& t, IntArrayRef shape, int64_t dim) {
  std::vector<int64_t> strides = t.strides().vec();
  strides[dim] = 0;
  return strided_view(t, shape, strides);
}

// Runs the kernel on [dst, src, index]; `indexed` is the tensor the index values address, along
// bounds.dim.
void run_index_kernel(IndexOp kind, const kernels::IndexBounds& bounds, const Tensor& dst,
                      const Tensor& src, const Tensor& index, const Tensor& indexed) {
  kernels::TensorIter it = kernels::make_iter({bounds.op,
                                               dst.scalar_type(),
                                               dst.scalar_type(),
                                               false,
                                               {"src", "index"},
                                               /*check_mem_overlap=*/false},
                                              dst, {src, index});
  kernels::scatter_gather_stub(
      it.device_type(), it, kind, bounds,
      indexed.stride(bounds.dim) * static_cast<int64_t>(indexed.element_size()));
}

// PyTorch's gather/scatter shape rule: the index fits in self except along dim, and in src.
void check_index_shape(const char* op, const Tensor& self, const Tensor& index, int64_t dim,
                       const Tensor* src) {
  EMBER_CHECK_T(ValueError, index.dim() == self.dim(), "[", op,
                "] Index tensor must have the same number of dimensions as self tensor (got ",
                index.dim(), " and ", self.dim(), ")");
  for (int64_t i = 0; i < index.dim(); ++i) {
    EMBER_CHECK_T(ValueError, i == dim || index.size(i) <= self.size(i), "[", op,
                  "] Size does not match at dimension ", i, ": expected index ", index.sizes(),
                  " to be smaller than self ", self.sizes(), " apart from dimension ", dim);
  }
  if (!src) return;
  EMBER_CHECK_T(ValueError, index.dim() == src->dim(), "[", op,
                "] Index tensor must have the same number of dimensions as src tensor (got ",
                index.dim(), " and ", src->dim(), ")");
  for (int64_t i = 0; i < index.dim(); ++i) {
    EMBER_CHECK_T(ValueError, index.size(i) <= src->size(i), "[", op,
                  "] Size does not match at dimension ", i, ": expected index ", index.sizes(),
                  " to be smaller than src ", src->sizes());
  }
}

// out[..., index[i], ...] (op)= src[i] along dim; out and index have at least one dim and src
// covers the index's shape.
void scatter_into(IndexOp kind, const kernels::IndexBounds& bounds, const Tensor& out,
                  const Tensor& index, const Tensor& src) {
  run_index_kernel(kind, bounds, restride(out, index.sizes(), bounds.dim),
                   strided_view(src, index.sizes(), src.strides()), index, out);
}

Tensor scatter_op(const char* op, IndexOp kind, const Tensor& x, int64_t dim, const Tensor& index,
                  const Tensor& src);

// scatter / scatter_add with their gradients: self's flows where src did not land (scatter) or
// everywhere (scatter_add); src's is gathered from the positions it was written to.
Tensor recorded_scatter(const char* op, IndexOp kind, const Tensor& x, int64_t dim,
                        const Tensor& index, const Tensor& src, bool src_is_value) {
  if (!autograd::needs_grad(x, src)) return scatter_op(op, kind, x, dim, index, src);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = scatter_op(op, kind, x, dim, index, src);
  }
  const Tensor src_input = src_is_value ? Tensor() : src;
  if (kind == IndexOp::ScatterAdd)
    autograd::record({out}, {x, src_input}, {index}, functions::ScatterAddBackward0{dim});
  else
    autograd::record(src_is_value ? "ScatterBackward1" : "ScatterBackward0", {out}, {x, src_input},
                     {index}, functions::ScatterBackward{dim});
  return out;
}

// Scatters src into `out` (a clone of self, or self itself for the in-place forms).
void scatter_checked(const char* op, IndexOp kind, const Tensor& out, int64_t dim,
                     const Tensor& index, const Tensor& src) {
  kernels::common_device(op, {&out, &index, &src}, {"self", "index", "src"});
  check_long_index(op, index);
  EMBER_CHECK_T(TypeError, src.scalar_type() == out.scalar_type(), "[", op,
                "] Expected self.dtype to be equal to src.dtype (got ", out.scalar_type(), " and ",
                src.scalar_type(), ")");
  int64_t d = detail::wrap_dim(dim, std::max<int64_t>(out.dim(), 1), op);
  if (index.numel() == 0) return;
  Tensor out1 = at_least_1d(out), index1 = at_least_1d(index), src1 = at_least_1d(src);
  check_index_shape(op, out1, index1, d, &src1);
  scatter_into(kind, kernels::bounds_of(op, d, out1.size(d)), out1, index1, src1);
}

Tensor scatter_op(const char* op, IndexOp kind, const Tensor& x, int64_t dim, const Tensor& index,
                  const Tensor& src) {
  Tensor out = x.clone();
  scatter_checked(op, kind, out, dim, index, src);
  return out;
}

// The value of scatter's Scalar form as a src of the index's shape that reads one element.
Tensor value_as_src(const char* op, const Tensor& self, const Tensor& index, const Scalar& value) {
  if (index.numel() > 0) ops::check_fits(op, value, self.scalar_type());  // only once written
  return ops::scalar_to_tensor(value, self.scalar_type(), self.device()).expand(index.sizes());
}

// scatter_ and scatter_add_: straight into self, or under autograd through a clone (Note
// [In-place ops under autograd]).
Tensor& scatter_inplace(const char* op, IndexOp kind, const Tensor& self, int64_t dim,
                        const Tensor& index, const Tensor& src, bool src_is_value) {
  kernels::check_mem_overlap(op, self, {index, src});
  if (autograd::check_inplace(self, op, src.requires_grad()))
    return ops::handle(ops::inplace_through_clone(op, self, [&](const Tensor& old) {
      return recorded_scatter(op, kind, old, dim, index, src, src_is_value);
    }));
  scatter_checked(op, kind, self, dim, index, src);
  return ops::handle(self);
}

}  // namespace

Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index) {
  const char* op = "index_select";
  EMBER_CHECK_T(IndexError, index.dim() <= 1, "[", op,
                "] Index is supposed to be a vector, got a tensor of ", index.dim(), " dimensions");
  kernels::common_device(op, {&x, &index}, {"self", "index"});
  EMBER_CHECK_T(TypeError, index.scalar_type() == kInt64 || index.scalar_type() == kInt32, "[", op,
                "] index must be of dtype Long (int64) or Int (int32), got ", index.scalar_type());
  const int64_t n = index.numel();
  EMBER_CHECK_T(IndexError, x.dim() > 0 || n == 1, "[", op,
                "] a 0-dim tensor takes exactly one index, got ", n);
  Tensor self = at_least_1d(x);
  int64_t d = detail::wrap_dim(dim, self.dim(), op);
  std::vector<int64_t> shape = self.sizes().vec();  // the gather's: n positions along d
  shape[d] = n;
  Tensor out = empty(shape, x.options());
  const kernels::IndexBounds bounds = kernels::bounds_of(op, d, self.size(d));
  Tensor flat = index.reshape({-1}).to(kInt64);
  if (n > 0 && out.numel() == 0) {
    // Another dim is empty, so nothing is gathered and the kernel checks no index: every index
    // must still be in range, as in PyTorch.
    kernels::check_indices_stub(index.device().type(), flat, bounds);
  } else if (n > 0) {
    // A gather whose index is the vector broadcast over every other dim.
    std::vector<int64_t> strides(shape.size(), 0);
    strides[d] = flat.stride(0);
    run_index_kernel(IndexOp::Gather, bounds, out, restride(self, shape, d),
                     strided_view(flat, shape, strides), self);
  }
  if (x.dim() == 0) out = out.view({});  // index_select of a 0-dim x keeps no dim
  if (autograd::needs_grad(x))           // every selected row adds its gradient back to its row
    autograd::record({out}, {x}, {flat},
                     functions::IndexSelectBackward0{d, shape, x.sizes().vec()});
  return out;
}

Tensor gather(const Tensor& x, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  kernels::common_device("gather", {&x, &index}, {"self", "index"});
  check_long_index("gather", index);
  int64_t d = detail::wrap_dim(dim, std::max<int64_t>(x.dim(), 1), "gather");
  Tensor out = empty(index.sizes(), x.options());
  if (index.numel() > 0) {
    Tensor self = at_least_1d(x), index1 = at_least_1d(index);
    check_index_shape("gather", self, index1, d, nullptr);
    run_index_kernel(IndexOp::Gather, kernels::bounds_of("gather", d, self.size(d)),
                     at_least_1d(out), restride(self, index1.sizes(), d), index1, self);
  }
  if (autograd::needs_grad(x))  // an empty result too: its gradient is zeros
    autograd::record({out}, {x}, {index}, functions::GatherBackward0{d, x.sizes().vec()});
  return out;
}

Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
  return recorded_scatter("scatter", IndexOp::Scatter, x, dim, index, src, false);
}

Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Scalar& value) {
  return recorded_scatter("scatter", IndexOp::Scatter, x, dim, index,
                          value_as_src("scatter", x, index, value), true);
}

Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
  return recorded_scatter("scatter_add", IndexOp::ScatterAdd, x, dim, index, src, false);
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, Scalar value) {
  EMBER_CHECK_T(TypeError, mask.scalar_type() == kBool,
                "[masked_fill] masked_fill only supports boolean masks, but got mask with dtype ",
                mask.scalar_type());
  kernels::common_device("masked_fill", {&x, &mask}, {"self", "mask"});
  ops::check_fits("masked_fill", value, x.scalar_type());
  // Checked here so a mismatch names masked_fill rather than where.
  int64_t shape[detail::kMaxDims];
  int nd = 0;
  kernels::broadcast_shapes("masked_fill", x.sizes(), mask.sizes(), shape, &nd);
  bool grad = autograd::needs_grad(x);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = where(mask, ops::scalar_to_tensor(value, x.scalar_type(), x.device()), x);
  }
  if (grad) autograd::record({out}, {x}, {mask}, functions::MaskedFillBackward0{});
  return out;
}

namespace {

// one_hot's errors are ValueErrors, as PyTorch's.
[[noreturn]] void class_out_of_range(const kernels::IndexBounds& bounds, int64_t value,
                                     const char* note) {
  if (value < 0)
    detail::fail<ValueError>("[one_hot] Class values must be non-negative, got ", value, note);
  detail::fail<ValueError>("[one_hot] Class values must be smaller than num_classes, got ", value,
                           " with num_classes=", bounds.size, note);
}

}  // namespace

Tensor one_hot(const Tensor& indices, int64_t num_classes) {
  EMBER_CHECK_T(TypeError, indices.scalar_type() == kInt64,
                "[one_hot] one_hot is only applicable to index tensor of dtype Long (int64), got ",
                indices.scalar_type());
  EMBER_CHECK_T(ValueError, num_classes >= -1,
                "[one_hot] num_classes must be -1 (inferred) or non-negative, got ", num_classes);
  if (indices.numel() == 0) {
    // PyTorch refuses num_classes = 0 here too, though the result would be well defined.
    EMBER_CHECK_T(ValueError, num_classes > 0,
                  "[one_hot] Can not infer total number of classes from empty tensor.");
  } else if (num_classes == -1) {
    // The class count must be known on the host, so this waits for the smallest and largest
    // class (one copy for both). With num_classes given, the scatter below checks the classes
    // without a wait.
    const std::vector<int64_t> range = stack({indices.min(), indices.max()}).to_vector<int64_t>();
    const int64_t lo = range[0], hi = range[1];
    EMBER_CHECK_T(ValueError, lo >= 0, "[one_hot] Class values must be non-negative, got ", lo);
    EMBER_CHECK_T(ValueError, hi < detail::kMaxSpan, "[one_hot] inferring num_classes = ", hi,
                  " + 1 makes the result too large; pass num_classes explicitly");
    num_classes = hi + 1;
  }
  std::vector<int64_t> shape = indices.sizes().vec();
  shape.push_back(num_classes);
  Tensor out = zeros(shape, indices.options());
  if (indices.numel() == 0) return out;
  Tensor index = indices.unsqueeze(-1);
  Tensor one = ops::scalar_to_tensor(1, kInt64, indices.device()).expand(index.sizes());
  scatter_into(IndexOp::Scatter, {"one_hot", out.dim() - 1, num_classes, &class_out_of_range}, out,
               index, one);
  return out;
}

Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return ember::index_select(*this, dim, index);
}
Tensor Tensor::gather(int64_t dim, const Tensor& index, bool sparse_grad) const {
  return ember::gather(*this, dim, index, sparse_grad);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ember::scatter(*this, dim, index, value);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return scatter_inplace("scatter_", IndexOp::Scatter, *this, dim, index, src, false);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) const {
  return scatter_inplace("scatter_", IndexOp::Scatter, *this, dim, index,
                         value_as_src("scatter_", *this, index, value), true);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::scatter_add(*this, dim, index, src);
}
Tensor& Tensor::scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return scatter_inplace("scatter_add_", IndexOp::ScatterAdd, *this, dim, index, src, false);
}

}  // namespace ember
