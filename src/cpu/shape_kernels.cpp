// CPU kernels of the shape ops: gather/scatter through an index, index checks and ranges, and
// sort/topk per slice.
#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

#include "cpu/kernels.h"
#include "cpu/loops.h"
#include "kernels/shape_functors.h"
#include "kernels/shape_stubs.h"

namespace ember::cpu {
namespace {

using namespace kernels;

template <class T, IndexOp op>
void scatter_gather_typed(TensorIter& it, const IndexBounds& bounds, int64_t dim_stride) {
  // An out-of-range index is recorded and skipped, and raised after the loop: exceptions must
  // not leave a parallel region.
  const int64_t dim_size = bounds.size;
  std::atomic<bool> failed{false};
  int64_t bad = 0;
  auto strip = [&](char* const* p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t idx = *reinterpret_cast<const int64_t*>(p[2] + i * s[2]);
      if (idx < 0 || idx >= dim_size) [[unlikely]] {
        if (bool expected = false; failed.compare_exchange_strong(expected, true)) bad = idx;
        continue;
      }
      char* dst = p[0] + i * s[0];
      const char* src = p[1] + i * s[1];
      if constexpr (op == IndexOp::Gather) {
        *reinterpret_cast<T*>(dst) = *reinterpret_cast<const T*>(src + idx * dim_stride);
      } else {
        T* d = reinterpret_cast<T*>(dst + idx * dim_stride);
        T v = *reinterpret_cast<const T*>(src);
        if constexpr (op == IndexOp::Scatter) {
          *d = v;
        } else {
          using M = opmath_t<T>;
          *d = convert<T>(Add<M>{M(1)}(static_cast<M>(*d), static_cast<M>(v)));
        }
      }
    }
  };
  // Scatters may hit one destination from several elements, so they stay on one thread.
  if constexpr (op == IndexOp::Gather) for_each_strip<3>(it, strip);
  else if (it.numel > 0) for_each_strip_range<3>(it, 0, it.numel, strip);
  if (failed.load()) raise_out_of_bounds(bounds, bad);
}

void scatter_gather_kernel(TensorIter& it, IndexOp op, const IndexBounds& bounds,
                           int64_t dim_stride) {
  dispatch_dtype(it.dtypes[0], "gather/scatter", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
      case IndexOp::Gather: return scatter_gather_typed<T, IndexOp::Gather>(it, bounds, dim_stride);
      case IndexOp::Scatter:
        return scatter_gather_typed<T, IndexOp::Scatter>(it, bounds, dim_stride);
      case IndexOp::ScatterAdd:
        return scatter_gather_typed<T, IndexOp::ScatterAdd>(it, bounds, dim_stride);
    }
    EMBER_INTERNAL_ASSERT(false, "unknown index op");
  });
}

std::pair<int64_t, int64_t> index_range_kernel(const Tensor& index) {
  Tensor c = index.contiguous();
  std::span<const int64_t> v = c.span<int64_t>();
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi};
}

// The smallest index if it is negative, else the largest if it is too large.
void check_indices_kernel(const Tensor& index, const IndexBounds& bounds) {
  if (index.numel() == 0) return;
  auto [lo, hi] = index_range_kernel(index);
  if (lo < 0) raise_out_of_bounds(bounds, lo);
  if (hi >= bounds.size) raise_out_of_bounds(bounds, hi);
}

// Orders one slice; `buf` is the calling thread's scratch of spec.n (value, position) pairs.
template <class T>
void sort_slice(char* const* p, const SortSpec& spec, std::vector<std::pair<T, int64_t>>& buf) {
  using M = opmath_t<T>;
  const SortBefore<M> before{spec.descending};
  for (int64_t j = 0; j < spec.n; ++j)
    buf[j] = {*reinterpret_cast<const T*>(p[1] + j * spec.strides[1]), j};
  // Ties broken by position make this a strict total order: std::sort is then stable.
  auto cmp = [&before](const std::pair<T, int64_t>& a, const std::pair<T, int64_t>& b) {
    M x = static_cast<M>(a.first), y = static_cast<M>(b.first);
    return before(x, y) || (!before(y, x) && a.second < b.second);
  };
  auto mid = buf.begin() + spec.k;
  if (spec.k == spec.n) std::sort(buf.begin(), buf.end(), cmp);
  else if (spec.sorted) std::partial_sort(buf.begin(), mid, buf.end(), cmp);
  else std::nth_element(buf.begin(), mid, buf.end(), cmp);
  for (int64_t j = 0; j < spec.k; ++j) {
    *reinterpret_cast<T*>(p[0] + j * spec.strides[0]) = buf[j].first;
    *reinterpret_cast<int64_t*>(p[2] + j * spec.strides[2]) = buf[j].second;
  }
}

void sort_kernel(TensorIter& it, const SortSpec& spec) {
  dispatch_dtype(it.dtypes[1], "sort", [&](auto tag) {
    using T = typename decltype(tag)::type;
    // One task per range of slices; the grain keeps about kGrainSize elements per thread.
    parallel_for(it.numel, std::max<int64_t>(1, kGrainSize / spec.n), [&](int64_t b, int64_t e) {
      std::vector<std::pair<T, int64_t>> buf(static_cast<size_t>(spec.n));
      for_each_strip_range<3>(it, b, e, [&](char* const* p, const int64_t* s, int64_t count) {
        for (int64_t i = 0; i < count; ++i) {
          char* slice[3] = {p[0] + i * s[0], p[1] + i * s[1], p[2] + i * s[2]};
          sort_slice<T>(slice, spec, buf);
        }
      });
    });
  });
}

}  // namespace

void register_shape_kernels() {
  using namespace kernels;
  scatter_gather_stub.set(DeviceType::CPU, &scatter_gather_kernel);
  check_indices_stub.set(DeviceType::CPU, &check_indices_kernel);
  sort_stub.set(DeviceType::CPU, &sort_kernel);
}

}  // namespace ember::cpu
