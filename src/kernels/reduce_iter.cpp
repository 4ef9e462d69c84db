// ReduceIter construction: split the dims, order the reduced ones, coalesce both groups.
#include "kernels/reduce_iter.h"

#include <algorithm>
#include <utility>

namespace ember::kernels {
namespace {

// Merges neighbouring dims (innermost first) that every stride array walks as one.
template <size_t N>
void coalesce(int& n, int64_t* size, int64_t* const (&strides)[N]) {
  if (n <= 1) return;
  int prev = 0;
  for (int d = 1; d < n; ++d) {
    bool mergeable = true;
    for (int64_t* s : strides) mergeable = mergeable && s[prev] * size[prev] == s[d];
    if (mergeable) {
      size[prev] *= size[d];
    } else {
      ++prev;
      size[prev] = size[d];
      for (int64_t* s : strides) s[prev] = s[d];
    }
  }
  n = prev + 1;
}

}  // namespace

ReduceIter make_reduce_iter(const Tensor& input, const bool* reduced, const Tensor& values,
                            const Tensor& indices) {
  ReduceIter it;
  const detail::TensorImpl& in = *input.impl();
  it.input = in.data();
  it.input_dtype = in.dtype;
  it.device = input.device();
  if (values.defined()) {
    it.values = values.impl()->data();
    it.values_dtype = values.dtype();
  }
  if (indices.defined()) it.indices = reinterpret_cast<int64_t*>(indices.impl()->data());

  int64_t out_stride = 1;
  for (int d = in.ndim - 1; d >= 0; --d) {
    int64_t size = in.sizes[d];
    if (reduced[d]) {
      it.reduced_numel *= size;
      if (size == 1) continue;
      it.reduced_size[it.nreduced] = size;
      it.reduced_stride[it.nreduced++] = in.strides[d];
    } else {
      it.num_outputs *= size;
      if (size == 1) continue;
      it.kept_size[it.nkept] = size;
      it.kept_in_stride[it.nkept] = in.strides[d];
      it.kept_out_stride[it.nkept++] = out_stride;
      out_stride *= size;
    }
  }

  // Smallest stride innermost so that a transposed input still reduces contiguous runs;
  // broadcast (stride 0) dims go outermost, where they cost nothing.
  auto rank = [](int64_t stride) { return stride == 0 ? INT64_MAX : stride; };
  for (int i = 1; i < it.nreduced; ++i)
    for (int j = i; j > 0 && rank(it.reduced_stride[j]) < rank(it.reduced_stride[j - 1]); --j) {
      std::swap(it.reduced_stride[j], it.reduced_stride[j - 1]);
      std::swap(it.reduced_size[j], it.reduced_size[j - 1]);
    }

  int64_t* const reduced_strides[1] = {it.reduced_stride};
  coalesce(it.nreduced, it.reduced_size, reduced_strides);
  int64_t* const kept_strides[2] = {it.kept_in_stride, it.kept_out_stride};
  coalesce(it.nkept, it.kept_size, kept_strides);
  if (it.nreduced == 0) {  // nothing to fold: one step of a size-1 dim keeps the loops uniform
    it.nreduced = 1;
    it.reduced_size[0] = 1;
    it.reduced_stride[0] = 0;
  }
  return it;
}

}  // namespace ember::kernels
