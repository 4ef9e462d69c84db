// Strides of new tensors made from others (Note [Preserved strides] in stride_order.h).
#include "core/stride_order.h"

#include <algorithm>
#include <utility>

#include "core/check.h"

namespace ember::detail {
namespace {

// PyTorch's should_swap: 1 when dim a should walk after dim b, -1 when before, 0 undecided.
int compare_dims(const int64_t* shape, const int64_t (*strides)[kMaxDims], int noperands, int a,
                 int b) {
  for (int k = 0; k < noperands; ++k) {
    const int64_t sa = strides[k][a], sb = strides[k][b];
    if (sa == 0 || sb == 0) continue;  // broadcast along one: the next operand decides
    if (sa != sb) return sa < sb ? -1 : 1;
    if (shape[a] > shape[b]) return 1;  // equal strides: the smaller size first
  }
  return 0;
}

// The dims of a `format` layout, fastest first (tensor dims).
constexpr int kChannelsLast[] = {1, 3, 2, 0};       // N, C, H, W: C fastest
constexpr int kChannelsLast3d[] = {1, 4, 3, 2, 0};  // N, C, D, H, W
void format_order(IntArrayRef shape, MemoryFormat format, int* order, const char* op) {
  const int ndim = static_cast<int>(shape.size());
  switch (format) {
    case MemoryFormat::Contiguous:
    case MemoryFormat::Preserve:
      for (int i = 0; i < ndim; ++i) order[i] = ndim - 1 - i;
      return;
    case MemoryFormat::ChannelsLast:
      EMBER_CHECK_T(ValueError, ndim == 4, "[", op,
                    "] required rank 4 tensor to use channels_last format (got shape ", shape, ")");
      std::copy_n(kChannelsLast, 4, order);
      return;
    case MemoryFormat::ChannelsLast3d:
      EMBER_CHECK_T(ValueError, ndim == 5, "[", op,
                    "] required rank 5 tensor to use channels_last_3d format (got shape ", shape,
                    ")");
      std::copy_n(kChannelsLast3d, 5, order);
      return;
  }
}

}  // namespace

void stride_order(const int64_t* shape, int ndim, const int64_t (*strides)[kMaxDims], int noperands,
                  int* order) {
  for (int i = 0; i < ndim; ++i) order[i] = i;
  // Insertion sort that tolerates undecided pairs, as PyTorch's (a dim passes undecided ones).
  for (int i = 1; i < ndim; ++i) {
    int moving = i;
    for (int j = i - 1; j >= 0; --j) {
      const int c = compare_dims(shape, strides, noperands, order[j], order[moving]);
      if (c > 0) {
        std::swap(order[j], order[moving]);
        moving = j;
      } else if (c < 0) {
        break;
      }
    }
  }
}

void dense_strides(IntArrayRef shape, const int* order, int64_t* strides) {
  int64_t next = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    strides[order[i]] = next;
    next *= std::max<int64_t>(shape[order[i]], 1);
  }
}

bool is_non_overlapping_and_dense(const TensorImpl& t) {
  if (t.contiguous) return true;
  int order[kMaxDims];
  int n = 0;
  for (int d = 0; d < t.ndim; ++d)
    if (t.sizes[d] != 1) order[n++] = d;
  std::sort(order, order + n, [&t](int a, int b) { return t.strides[a] < t.strides[b]; });
  int64_t expected = 1;
  for (int i = 0; i < n; ++i) {
    if (t.strides[order[i]] != expected) return false;
    expected *= t.sizes[order[i]];
  }
  return true;
}

bool is_contiguous_as(const TensorImpl& t, MemoryFormat format) {
  EMBER_CHECK_T(ValueError, format != MemoryFormat::Preserve,
                "[is_contiguous] preserve memory format is unsupported by the contiguous "
                "operator");
  if (format == MemoryFormat::Contiguous) return t.contiguous;
  const bool rank_fits = (format == MemoryFormat::ChannelsLast && t.ndim == 4) ||
                         (format == MemoryFormat::ChannelsLast3d && t.ndim == 5);
  if (!rank_fits) return false;
  int order[kMaxDims];
  format_order(t.shape(), format, order, "is_contiguous");
  int64_t expected = 1;
  for (int i = 0; i < t.ndim; ++i) {
    const int d = order[i];
    if (t.sizes[d] == 1) continue;
    if (t.strides[d] != expected) return false;
    expected *= t.sizes[d];
  }
  return true;
}

std::shared_ptr<TensorImpl> empty_impl(IntArrayRef shape, ScalarType dtype, Device device,
                                       MemoryFormat format) {
  if (format == MemoryFormat::Contiguous) return empty_impl(shape, dtype, device);
  int order[kMaxDims];
  format_order(shape, format, order, "empty");
  int64_t strides[kMaxDims];
  dense_strides(shape, order, strides);
  return empty_strided_impl(shape, IntArrayRef(strides, shape.size()), dtype, device);
}

std::shared_ptr<TensorImpl> empty_like_impl(const TensorImpl& like, ScalarType dtype, Device device,
                                            MemoryFormat format) {
  if (format != MemoryFormat::Preserve) return empty_impl(like.shape(), dtype, device, format);
  if (is_non_overlapping_and_dense(like))
    return empty_strided_impl(like.shape(), like.stride_ref(), dtype, device);
  // PyTorch's infer_dense_strides: the order of like's own strides, in TensorIter's numbering.
  const int ndim = like.ndim;
  int64_t shape[kMaxDims] = {};
  int64_t strides[1][kMaxDims] = {};
  for (int i = 0; i < ndim; ++i) {
    shape[i] = like.sizes[ndim - 1 - i];
    strides[0][i] = like.strides[ndim - 1 - i];
  }
  int order[kMaxDims];
  stride_order(shape, ndim, strides, 1, order);
  for (int i = 0; i < ndim; ++i) order[i] = ndim - 1 - order[i];  // as tensor dims
  int64_t dense[kMaxDims];
  dense_strides(like.shape(), order, dense);
  return empty_strided_impl(like.shape(), IntArrayRef(dense, like.shape().size()), dtype, device);
}

}  // namespace ember::detail
