// Views: every op here returns a tensor sharing storage with its input (view, reshape when
// possible, transpose, permute, squeeze, unsqueeze, expand, narrow, select, slice, as_strided),
// remembered as a view of its input's base (Note [Views in autograd]), and the view
// an index gives before its tensor indices (split_indices; the rest is in advanced_index.cpp).
#include <algorithm>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "autograd/functions/shape.h"
#include "autograd/functions/view.h"
#include "autograd/record.h"
#include "autograd/view_history.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/tensor.h"
#include "ops/shape_util.h"

namespace ember {
namespace {

namespace functions = autograd::functions;
using detail::kMaxDims;
using detail::wrap_dim;

Tensor make_view(const Tensor& base, IntArrayRef shape, IntArrayRef strides, int64_t offset) {
  Tensor view(detail::view_impl(*detail::impl_of(base), shape, strides, offset));
  autograd::track_view(view, base);
  return view;
}

// Resolves one -1 in `shape` against numel (PyTorch's infer_size and its messages).
std::vector<int64_t> infer_size(const char* op, IntArrayRef shape, int64_t numel) {
  std::vector<int64_t> out = shape.vec();
  int64_t known = 1;
  bool overflow = false;  // the known sizes multiply past int64: no numel can match them
  std::optional<size_t> infer;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      EMBER_CHECK_T(ValueError, !infer, "[", op, "] only one dimension can be inferred");
      infer = i;
    } else {
      EMBER_CHECK_T(ValueError, out[i] >= 0, "[", op, "] invalid shape dimension ", out[i]);
      overflow = overflow || __builtin_mul_overflow(known, out[i], &known);
    }
  }
  bool ok = !overflow && (numel == known || (infer && known > 0 && numel % known == 0));
  EMBER_CHECK_T(ValueError, ok, "[", op, "] shape '", shape, "' is invalid for input of size ",
                numel);
  if (infer) {
    EMBER_CHECK_T(ValueError, known != 0, "[", op,
                  "] cannot reshape tensor of 0 elements into shape ", shape,
                  " because the unspecified dimension size -1 can be any value and is ambiguous");
    out[*infer] = numel / known;
  }
  detail::checked_numel(out, op);  // an empty result's span (Note [Size limits])
  return out;
}

// Strides that view `old` geometry as `shape` without copying, if any (PyTorch's computeStride).
std::optional<std::vector<int64_t>> view_strides(IntArrayRef old_shape, IntArrayRef old_strides,
                                                 IntArrayRef shape) {
  std::vector<int64_t> strides(shape.size());
  if (old_shape.empty()) {
    std::fill(strides.begin(), strides.end(), 1);
    return strides;
  }
  int64_t numel = 1;
  for (int64_t s : old_shape) numel *= s;
  if (numel == 0) {
    if (old_shape == shape) return old_strides.vec();
    int64_t s = 1;
    for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
      strides[i] = s;
      s *= std::max<int64_t>(shape[i], 1);
    }
    return strides;
  }
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_shape.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_shape[d];
    if (d == 0 ||
        (old_shape[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = old_strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return strides;
}

// `out`, a view of `input` with its elements in the same order, recorded as `name`
// (ViewBackward0, SqueezeBackward0, SqueezeBackward1) when input requires grad.
Tensor reshaped(const char* name, const Tensor& input, Tensor out) {
  if (autograd::needs_grad(input))
    autograd::record(name, {out}, {input}, {}, functions::ReshapeBackward{input.sizes().vec()});
  return out;
}

}  // namespace

Tensor Tensor::view(IntArrayRef shape) const {
  std::vector<int64_t> s = infer_size("view", shape, numel());
  auto strides = view_strides(sizes(), this->strides(), s);
  EMBER_CHECK_T(ValueError, strides.has_value(),
                "[view] view size is not compatible with input tensor's size and stride (at least "
                "one dimension spans across two contiguous subspaces). Use .reshape(...) instead. "
                "(input sizes ",
                sizes(), ", strides ", this->strides(), "; requested ", shape, ")");
  return reshaped("ViewBackward0", *this, make_view(*this, s, *strides, storage_offset()));
}

Tensor Tensor::reshape(IntArrayRef shape) const {
  std::vector<int64_t> s = infer_size("reshape", shape, numel());
  if (auto strides = view_strides(sizes(), this->strides(), s))
    return reshaped("ViewBackward0", *this, make_view(*this, s, *strides, storage_offset()));
  return contiguous().view(s);
}

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  int64_t s = wrap_dim(start_dim, dim(), "flatten"), e = wrap_dim(end_dim, dim(), "flatten");
  if (dim() == 0) return reshape({1});
  EMBER_CHECK_T(ValueError, s <= e,
                "[flatten] flatten() has invalid args: start_dim cannot come after end_dim");
  std::vector<int64_t> shape;
  for (int64_t i = 0; i < s; ++i) shape.push_back(size(i));
  int64_t merged = 1;
  for (int64_t i = s; i <= e; ++i) merged *= size(i);
  shape.push_back(merged);
  for (int64_t i = e + 1; i < dim(); ++i) shape.push_back(size(i));
  return reshape(shape);
}

Tensor Tensor::unflatten(int64_t dim, IntArrayRef sizes) const {
  const int64_t d = wrap_dim(dim, this->dim(), "unflatten");
  EMBER_CHECK_T(ValueError, !sizes.empty(), "[unflatten] unflatten: sizes must be non-empty");
  const auto inferred = std::count(sizes.begin(), sizes.end(), -1);
  int64_t known = 1;
  for (int64_t size : sizes)
    if (size != -1) known *= size;
  EMBER_CHECK_T(ValueError, inferred <= 1, "[unflatten] only one dimension can be inferred");
  const int64_t length = size(d);
  EMBER_CHECK_T(ValueError, inferred ? known != 0 && length % known == 0 : known == length,
                "[unflatten] unflatten: Provided sizes ", sizes,
                " don't multiply up to the size of dim ", d, " (", length, ") in the input tensor");
  std::vector<int64_t> shape(this->sizes().begin(), this->sizes().begin() + d);
  for (int64_t size : sizes) shape.push_back(size == -1 ? length / known : size);
  shape.insert(shape.end(), this->sizes().begin() + d + 1, this->sizes().end());
  return view(shape);
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  int64_t a = wrap_dim(dim0, dim(), "transpose"), b = wrap_dim(dim1, dim(), "transpose");
  std::vector<int64_t> shape = sizes().vec(), stride = strides().vec();
  if (dim() > 0) {  // a 0-dim tensor's dims 0 and -1 are no dims at all: the view is itself
    std::swap(shape[a], shape[b]);
    std::swap(stride[a], stride[b]);
  }
  Tensor out = make_view(*this, shape, stride, storage_offset());
  if (autograd::needs_grad(*this))
    autograd::record({out}, {*this}, {}, functions::TransposeBackward0{a, b});
  return out;
}

Tensor Tensor::t() const {
  EMBER_CHECK_T(ValueError, dim() <= 2,
                "[t] t() expects a tensor with <= 2 dimensions, but self is ", dim(), "D");
  // A 0-D or 1-D tensor is its own transpose: the tensor itself, where PyTorch makes a view with
  // a TBackward0 (an in-place op on x.t() is then one on x: the same values and gradients, but x
  // gets the op's node where PyTorch's gets CopySlices).
  if (dim() < 2) return *this;
  Tensor out = make_view(*this, {size(1), size(0)}, {stride(1), stride(0)}, storage_offset());
  if (autograd::needs_grad(*this)) autograd::record({out}, {*this}, {}, functions::TBackward0{});
  return out;
}

Tensor Tensor::permute(IntArrayRef dims) const {
  EMBER_CHECK_T(ValueError, static_cast<int64_t>(dims.size()) == dim(),
                "[permute] number of dimensions in the tensor input does not match the length of "
                "the desired ordering of dimensions i.e. input.dim() = ",
                dim(), " is not equal to len(dims) = ", dims.size());
  std::vector<int64_t> shape(dims.size()), stride(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], dim(), "permute");
    EMBER_CHECK_T(ValueError, !seen[d], "[permute] repeated dim in permute: ", dims);
    seen[d] = true;
    shape[i] = size(d);
    stride[i] = this->stride(d);
  }
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    inverse[wrap_dim(dims[i], dim(), "permute")] = int64_t(i);
  Tensor out = make_view(*this, shape, stride, storage_offset());
  if (autograd::needs_grad(*this))
    autograd::record({out}, {*this}, {}, functions::PermuteBackward0{std::move(inverse)});
  return out;
}

Tensor Tensor::squeeze() const {
  std::vector<int64_t> shape, stride;
  for (int64_t i = 0; i < dim(); ++i) {
    if (size(i) == 1) continue;
    shape.push_back(size(i));
    stride.push_back(this->stride(i));
  }
  return reshaped("SqueezeBackward0", *this, make_view(*this, shape, stride, storage_offset()));
}

Tensor Tensor::squeeze(int64_t d) const {
  std::vector<int64_t> shape = sizes().vec(), stride = strides().vec();
  int64_t w = wrap_dim(d, dim(), "squeeze");  // a 0-dim tensor takes dim 0 and -1, and stays
  if (dim() > 0 && size(w) == 1) {
    shape.erase(shape.begin() + w);
    stride.erase(stride.begin() + w);
  }
  return reshaped("SqueezeBackward1", *this, make_view(*this, shape, stride, storage_offset()));
}

Tensor Tensor::unsqueeze(int64_t d) const {
  int64_t w = wrap_dim(d, dim() + 1, "unsqueeze");
  std::vector<int64_t> shape = sizes().vec(), stride = strides().vec();
  int64_t s = w < dim() ? shape[w] * stride[w] : 1;
  shape.insert(shape.begin() + w, 1);
  stride.insert(stride.begin() + w, s);
  Tensor out = make_view(*this, shape, stride, storage_offset());
  if (autograd::needs_grad(*this))
    autograd::record({out}, {*this}, {}, functions::UnsqueezeBackward0{w});
  return out;
}

Tensor Tensor::expand(IntArrayRef shape) const {
  int64_t n = static_cast<int64_t>(shape.size());
  EMBER_CHECK_T(ValueError, n >= dim(), "[expand] the number of sizes provided (", n,
                ") must be greater or equal to the number of dimensions in the tensor (", dim(),
                ")");
  std::vector<int64_t> out(n), stride(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t src = i - (n - dim());
    int64_t want = shape[i];
    if (src < 0) {
      EMBER_CHECK_T(ValueError, want >= 0, "[expand] The expanded size of the tensor (", want,
                    ") isn't allowed in a leading, non-existing dimension ", i);
      out[i] = want;
      stride[i] = 0;
      continue;
    }
    int64_t have = size(src);
    if (want == -1) want = have;
    EMBER_CHECK_T(ValueError, have == want || have == 1,
                  "[expand] The expanded size of the tensor (", want,
                  ") must match the existing size (", have, ") at non-singleton dimension ", i,
                  ".  Target sizes: ", shape, ".  Tensor sizes: ", sizes());
    out[i] = want;
    stride[i] = have == want ? this->stride(src) : 0;
  }
  Tensor expanded = make_view(*this, out, stride, storage_offset());
  if (autograd::needs_grad(*this))
    autograd::record({expanded}, {*this}, {}, functions::ExpandBackward0{sizes().vec()});
  return expanded;
}

Tensor Tensor::narrow(int64_t d, int64_t start, int64_t length) const {
  EMBER_CHECK_T(IndexError, dim() > 0, "[narrow] narrow() cannot be applied to a 0-dim tensor.");
  int64_t w = wrap_dim(d, dim(), "narrow");
  int64_t n = size(w);
  EMBER_CHECK_T(IndexError, start >= -n && start <= n,
                "[narrow] start out of range (expected to be in range of [", -n, ", ", n,
                "], but got ", start, ")");
  if (start < 0) start += n;
  EMBER_CHECK_T(IndexError, length >= 0 && length <= n - start, "[narrow] start (", start,
                ") + length (", length, ") exceeds dimension size (", n, ").");
  return slice(w, start, start + length, 1);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  EMBER_CHECK_T(IndexError, dim() > 0, "[select] select() cannot be applied to a 0-dim tensor.");
  int64_t w = wrap_dim(d, dim(), "select");
  int64_t n = size(w);
  EMBER_CHECK_T(IndexError, index >= -n && index < n, "[select] select(): index ", index,
                " out of range for tensor of size ", sizes(), " at dimension ", w);
  if (index < 0) index += n;
  std::vector<int64_t> shape = sizes().vec(), stride = strides().vec();
  int64_t offset = storage_offset() + index * stride[w];
  shape.erase(shape.begin() + w);
  stride.erase(stride.begin() + w);
  Tensor out = make_view(*this, shape, stride, offset);
  if (autograd::needs_grad(*this))
    autograd::record({out}, {*this}, {}, functions::SelectBackward0{sizes().vec(), w, index});
  return out;
}

Tensor Tensor::slice(int64_t d, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  EMBER_CHECK_T(IndexError, dim() > 0, "[slice] slice() cannot be applied to a 0-dim tensor.");
  EMBER_CHECK_T(ValueError, step > 0, "[slice] slice step must be positive, got ", step);
  int64_t w = wrap_dim(d, dim(), "slice");
  int64_t n = size(w);
  // Python's clamping: out-of-range bounds are clipped, never an error.
  int64_t s = start.value_or(0), e = end.value_or(n);
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = std::clamp<int64_t>(s, 0, n);
  e = std::clamp<int64_t>(e, s, n);
  std::vector<int64_t> shape = sizes().vec(), stride = strides().vec();
  int64_t offset = storage_offset() + s * stride[w];
  shape[w] = e == s ? 0 : (e - s - 1) / step + 1;
  // A dim of size 0 or 1 may keep any stride; otherwise step < n, so stride * step stays within
  // the extent stride * (n - 1) that Note [Size limits] bounds.
  if (shape[w] > 1) stride[w] *= step;
  Tensor out = make_view(*this, shape, stride, offset);
  if (autograd::needs_grad(*this))
    autograd::record({out}, {*this}, {}, functions::SliceBackward0{sizes().vec(), w, s, e, step});
  return out;
}

Tensor Tensor::as_strided(IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) const {
  const int64_t offset = storage_offset.value_or(this->storage_offset());
  EMBER_CHECK(offset >= 0, "[as_strided] Tensor: invalid storage offset ", offset);
  const int64_t extent = detail::strided_extent(size, stride, "as_strided");
  const size_t item = elementSize(scalar_type());
  const size_t needed = extent == 0 ? 0 : static_cast<size_t>(offset + extent) * item;
  const size_t available = detail::impl_of(*this)->storage->nbytes;
  EMBER_CHECK(needed <= available, "[as_strided] setStorage: sizes ", size, ", strides ", stride,
              ", storage offset ", offset, ", and itemsize ", item, " requiring a storage size of ",
              needed, " are out of bounds for storage of size ", available);
  Tensor out = make_view(*this, size, stride, offset);
  if (autograd::needs_grad(*this))
    autograd::record({out}, {*this}, {},
                     functions::AsStridedBackward0{functions::StridedGeometry::of(*this),
                                                   functions::StridedGeometry::of(out)});
  return out;
}

namespace {

// A 0-dim integer tensor indexes as the integer it holds (a select, so a view), as in LibTorch;
// on a GPU, reading it waits for the device. uint8 is not one: PyTorch takes it as a mask, which
// ember refuses like any other uint8 index.
bool is_integer_scalar(const indexing::TensorIndex& i) {
  if (!i.is_tensor() || i.tensor().dim() != 0) return false;
  const ScalarType t = i.tensor().scalar_type();
  return isIntegralType(t, /*include_bool=*/false) && t != kUInt8;
}

// The dims of the indexed tensor an index refers to: a mask as many as it has.
int64_t dims_covered(const indexing::TensorIndex& i) {
  using Kind = indexing::TensorIndex::Kind;
  switch (i.kind()) {
    case Kind::Integer:
    case Kind::Slice: return 1;
    case Kind::None:
    case Kind::Ellipsis:
    case Kind::Boolean: return 0;
    case Kind::Tensor: return i.tensor().scalar_type() == kBool ? i.tensor().dim() : 1;
  }
  EMBER_INTERNAL_ASSERT(false, "unknown index kind");
}

// Python's True / False as an index of a new dim of size 1: all of it or none of it.
Tensor bool_as_index(const Tensor& x, bool value) {
  return value ? zeros({1}, TensorOptions(kInt64).device(x.device()))
               : empty({0}, TensorOptions(kInt64).device(x.device()));
}

}  // namespace

// As LibTorch's applySlicing (ATen/TensorIndexing.h).
ops::SplitIndices ops::split_indices(const Tensor& self,
                                     std::span<const indexing::TensorIndex> indices,
                                     const char* op) {
  int64_t consumed = 0;  // dims the indices refer to (integers, slices and tensors)
  int ellipses = 0;
  for (const indexing::TensorIndex& i : indices) {
    if (i.is_tensor()) detail::defined_impl(detail::impl_of(i.tensor()), op);
    consumed += dims_covered(i);
    ellipses += i.is_ellipsis() ? 1 : 0;
  }
  EMBER_CHECK_T(IndexError, self.dim() > 0 || indices.empty() || !indices[0].is_integer(), "[", op,
                "] invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  EMBER_CHECK_T(IndexError, ellipses <= 1, "[", op,
                "] an index can only have a single ellipsis ('...')");
  EMBER_CHECK_T(IndexError, consumed <= self.dim(), "[", op,
                "] too many indices for tensor of dimension ", self.dim(), " (got ", consumed, ")");
  SplitIndices r{self, {}};
  int64_t d = 0;       // current dim of r.view
  int64_t source = 0;  // the dim of self that the index refers to
  auto record_tensor = [&](Tensor t) {
    r.tensors.resize(static_cast<size_t>(d + 1));
    d += t.scalar_type() == kBool ? t.dim() : 1;  // as PyTorch 2.x (1.13 adds 1 for a mask)
    r.tensors.back() = std::move(t);
  };
  for (const indexing::TensorIndex& i : indices) {
    if (i.is_integer() || is_integer_scalar(i)) {
      const int64_t n = i.is_integer() ? i.integer() : i.tensor().item<int64_t>();
      // LibTorch's applySelect message, naming the dim of self the user indexed.
      const int64_t size = r.view.size(d);
      EMBER_CHECK_T(IndexError, n >= -size && n < size, "[", op, "] index ", n,
                    " is out of bounds for dimension ", source, " with size ", size);
      ++source;
      r.view = r.view.select(d, n);
      continue;
    }
    switch (i.kind()) {
      case indexing::TensorIndex::Kind::Integer: break;  // above
      case indexing::TensorIndex::Kind::Slice:
        EMBER_CHECK_T(ValueError, i.slice().step() > 0, "[", op,
                      "] step must be greater than zero, got ", i.slice().step());
        r.view = r.view.slice(d++, i.slice().start(), i.slice().stop(), i.slice().step());
        ++source;
        break;
      case indexing::TensorIndex::Kind::None: r.view = r.view.unsqueeze(d++); break;
      case indexing::TensorIndex::Kind::Ellipsis:
        d += self.dim() - consumed;
        source += self.dim() - consumed;
        break;
      case indexing::TensorIndex::Kind::Boolean:
        r.view = r.view.unsqueeze(d);
        record_tensor(bool_as_index(r.view, i.boolean()));
        break;
      case indexing::TensorIndex::Kind::Tensor:
        if (i.tensor().dim() == 0 && i.tensor().scalar_type() == kBool) {  // as true / false
          r.view = r.view.unsqueeze(d);
          record_tensor(bool_as_index(r.view, i.tensor().item<bool>()));
        } else {
          source += dims_covered(i);
          record_tensor(i.tensor());
        }
        break;
    }
  }
  return r;
}

}  // namespace ember
