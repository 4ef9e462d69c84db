// ReduceIter construction: split the dims, order the reduced ones, coalesce both groups.
#include "kernels/reduce_iter.h"

#include <algorithm>
#include <utility>

namespace ember::kernels {
namespace {

// Merges neighbouring dims (innermost first) that every operand walks as one.
template <int N>
void coalesce(OffsetCalculator<N>& g) {
  if (g.ndim <= 1) return;
  int prev = 0;
  for (int d = 1; d < g.ndim; ++d) {
    bool mergeable = true;
    for (int k = 0; k < N; ++k)
      mergeable = mergeable && g.strides[prev][k] * g.sizes[prev] == g.strides[d][k];
    if (mergeable) {
      g.sizes[prev] *= g.sizes[d];
    } else {
      ++prev;
      g.sizes[prev] = g.sizes[d];
      for (int k = 0; k < N; ++k) g.strides[prev][k] = g.strides[d][k];
    }
  }
  g.ndim = prev + 1;
}

}  // namespace

ReduceIter make_reduce_iter(const Tensor& input, const bool* reduced, const Tensor& values,
                            const Tensor& indices) {
  ReduceIter it;
  const detail::TensorImpl& in = *detail::impl_of(input);
  it.input = in.data();
  it.input_dtype = in.dtype;
  it.device = input.device();
  if (values.defined()) {
    it.values = detail::impl_of(values)->data();
    it.values_dtype = values.scalar_type();
  }
  if (indices.defined()) it.indices = reinterpret_cast<int64_t*>(detail::impl_of(indices)->data());

  ReduceGeometry& g = it.geometry;
  OffsetCalculator<2>& kept = g.kept;
  OffsetCalculator<1>& folded = g.reduced;
  int64_t out_stride = 1;
  for (int d = in.ndim - 1; d >= 0; --d) {
    int64_t size = in.sizes[d];
    if (reduced[d]) {
      g.reduced_numel *= size;
      if (size == 1) continue;
      folded.sizes[folded.ndim] = size;
      folded.strides[folded.ndim++][0] = in.strides[d];
    } else {
      g.num_outputs *= size;
      if (size == 1) continue;
      kept.sizes[kept.ndim] = size;
      kept.strides[kept.ndim][ReduceGeometry::kIn] = in.strides[d];
      kept.strides[kept.ndim++][ReduceGeometry::kOut] = out_stride;
      out_stride *= size;
    }
  }

  // Smallest stride innermost so that a transposed input still reduces contiguous runs;
  // broadcast (stride 0) dims go outermost, where they cost nothing.
  auto rank = [](int64_t stride) { return stride == 0 ? INT64_MAX : stride; };
  for (int i = 1; i < folded.ndim; ++i)
    for (int j = i; j > 0 && rank(folded.strides[j][0]) < rank(folded.strides[j - 1][0]); --j) {
      std::swap(folded.strides[j][0], folded.strides[j - 1][0]);
      std::swap(folded.sizes[j], folded.sizes[j - 1]);
    }

  coalesce(folded);
  coalesce(kept);
  if (folded.ndim == 0) {  // nothing to fold: one step of a size-1 dim keeps the loops uniform
    folded.ndim = 1;
    folded.sizes[0] = 1;
    folded.strides[0][0] = 0;
  }
  return it;
}

}  // namespace ember::kernels
