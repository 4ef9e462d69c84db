// Joining and splitting: cat and stack write narrow views of one output with copy_; split
// and chunk return narrow views of the input, unbind its slices. Their Tensor methods too.
#include <algorithm>
#include <string>
#include <vector>

#include "autograd/functions/shape.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/shape_ops.h"
#include "kernels/tensor_iter.h"

namespace ember {
namespace {

// The device every tensor of the list shares; errors name the entry ("tensors[1]").
Device list_device(const char* op, const std::vector<Tensor>& tensors) {
  std::vector<std::string> names;
  std::vector<const char*> name_ptrs;
  std::vector<const Tensor*> ptrs;
  for (size_t i = 0; i < tensors.size(); ++i) names.push_back("tensors[" + std::to_string(i) + "]");
  for (size_t i = 0; i < tensors.size(); ++i) {
    name_ptrs.push_back(names[i].c_str());
    ptrs.push_back(&tensors[i]);
  }
  return kernels::common_device(op, ptrs.data(), name_ptrs.data(), static_cast<int>(ptrs.size()));
}

// PyTorch still accepts 1-D empty tensors in cat whatever the other shapes (legacy behaviour):
// they take part in dtype promotion only.
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

}  // namespace

Tensor cat(TensorList list, int64_t dim) {
  const std::vector<Tensor> tensors = list.vec();  // the autograd record keeps them
  EMBER_CHECK_T(ValueError, !tensors.empty(), "[cat] expected a non-empty list of Tensors");
  Device device = list_device("cat", tensors);
  ScalarType dtype = tensors[0].scalar_type();
  const Tensor* ref = nullptr;  // the first tensor that sets the shape
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK_T(ValueError, t.dim() > 0, "[cat] zero-dimensional tensor (at position ", i,
                  ") cannot be concatenated");
    dtype = promote_types(dtype, t.scalar_type());
    if (!ref && !is_legacy_empty(t)) ref = &t;
  }
  // Only legacy empty tensors: the result is one too.
  int64_t d = ref ? detail::wrap_dim(dim, ref->dim(), "cat") : 0;
  std::vector<int64_t> shape = ref ? ref->sizes().vec() : std::vector<int64_t>{0};
  shape[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (is_legacy_empty(t)) continue;
    EMBER_CHECK_T(ValueError, t.dim() == ref->dim(),
                  "[cat] Tensors must have same number of dimensions: got ", ref->dim(), " and ",
                  t.dim());
    for (int64_t k = 0; k < t.dim(); ++k) {
      EMBER_CHECK_T(ValueError, k == d || t.size(k) == ref->size(k),
                    "[cat] Sizes of tensors must match except in dimension ", d, ". Expected size ",
                    ref->size(k), " but got size ", t.size(k), " for tensor number ", i,
                    " in the list.");
    }
    shape[d] += t.size(d);
  }

  Tensor out = empty(shape, TensorOptions(dtype).device(device));
  bool grad = autograd::needs_grad_any(tensors);
  std::vector<std::pair<int64_t, int64_t>> ranges;  // each input's [offset, length) along d
  int64_t offset = 0;
  {
    autograd::NoGradGuard no_grad;  // the copies into out are this op's own business
    for (const Tensor& t : tensors) {
      int64_t length = is_legacy_empty(t) ? -1 : t.size(d);
      ranges.emplace_back(offset, length);
      if (length < 0) continue;
      out.narrow(d, offset, length).copy_(t);
      offset += length;
    }
  }
  if (grad)
    autograd::record({out}, tensors, {}, autograd::functions::CatBackward0{d, std::move(ranges)});
  return out;
}

Tensor stack(TensorList list, int64_t dim) {
  const std::vector<Tensor> tensors = list.vec();
  EMBER_CHECK_T(ValueError, !tensors.empty(), "[stack] stack expects a non-empty TensorList");
  list_device("stack", tensors);
  int64_t d = detail::wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK_T(ValueError, tensors[i].sizes() == tensors[0].sizes(),
                  "[stack] stack expects each tensor to be equal size, but got ",
                  tensors[0].sizes(), " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
    parts.push_back(tensors[i].unsqueeze(d));
  }
  bool grad = autograd::needs_grad_any(tensors);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = cat(parts, d);
  }
  if (grad) autograd::record({out}, tensors, {}, autograd::functions::StackBackward0{d});
  return out;
}

std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim) {
  EMBER_CHECK_T(ValueError, x.dim() > 0, "[split] split expects at least a 1-dimensional tensor");
  EMBER_CHECK_T(
      ValueError, split_size >= 0,
      "[split] split expects split_size be non-negative, but got split_size=", split_size);
  int64_t d = detail::wrap_dim(dim, x.dim(), "split");
  int64_t n = x.size(d);
  EMBER_CHECK_T(
      ValueError, split_size > 0 || n == 0,
      "[split] split_size can only be 0 if dimension size is 0, but got dimension size of ", n);
  // At least one piece, even when split_size exceeds the size (PyTorch keeps this for BC).
  int64_t count = n == 0 || split_size == 0 ? 1 : (n - 1) / split_size + 1;
  std::vector<Tensor> pieces;
  for (int64_t i = 0, start = 0; i < count; ++i, start += std::min(split_size, n - start))
    pieces.push_back(x.narrow(d, start, std::min(split_size, n - start)));
  return pieces;
}

std::vector<Tensor> split(const Tensor& x, IntArrayRef split_sizes, int64_t dim) {
  EMBER_CHECK_T(ValueError, x.dim() > 0, "[split] split expects at least a 1-dimensional tensor");
  int64_t d = detail::wrap_dim(dim, x.dim(), "split");
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    EMBER_CHECK_T(ValueError, s >= 0,
                  "[split] split_with_sizes expects split_sizes have only "
                  "non-negative entries, but got split_sizes=",
                  split_sizes);
    // Saturates just past the size, so huge sizes cannot overflow the sum.
    total = s > x.size(d) - total ? x.size(d) + 1 : total + s;
  }
  EMBER_CHECK_T(ValueError, total == x.size(d),
                "[split] split_with_sizes expects split_sizes to "
                "sum exactly to ",
                x.size(d), " (input tensor's size at dimension ", d,
                "), but got split_sizes=", split_sizes);
  std::vector<Tensor> pieces;
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    pieces.push_back(x.narrow(d, start, s));
    start += s;
  }
  return pieces;
}

std::vector<Tensor> split_with_sizes(const Tensor& x, IntArrayRef split_sizes, int64_t dim) {
  return split(x, split_sizes, dim);
}

std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim) {
  EMBER_CHECK_T(ValueError, x.dim() > 0, "[chunk] chunk expects at least a 1-dimensional tensor");
  EMBER_CHECK_T(ValueError, chunks > 0,
                "[chunk] chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = detail::wrap_dim(dim, x.dim(), "chunk");
  int64_t n = x.size(d);
  // An empty dim still gives `chunks` pieces, which split by size 0 could not express.
  if (n == 0) return split(x, std::vector<int64_t>(static_cast<size_t>(chunks), 0), d);
  return split(x, (n - 1) / chunks + 1, d);
}

std::vector<Tensor> unbind(const Tensor& x, int64_t dim) {
  EMBER_CHECK_T(IndexError, x.dim() > 0, "[unbind] Dimension specified as ", dim,
                " but tensor has no dimensions");
  int64_t d = detail::wrap_dim(dim, x.dim(), "unbind");
  std::vector<Tensor> slices;
  for (int64_t i = 0; i < x.size(d); ++i) slices.push_back(x.select(d, i));
  return slices;
}

std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  return ember::split(*this, split_size, dim);
}
std::vector<Tensor> Tensor::split(IntArrayRef split_size, int64_t dim) const {
  return ember::split(*this, split_size, dim);
}
std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef split_sizes, int64_t dim) const {
  return ember::split(*this, split_sizes, dim);
}
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  return ember::chunk(*this, chunks, dim);
}
std::vector<Tensor> Tensor::unbind(int64_t dim) const { return ember::unbind(*this, dim); }

}  // namespace ember
