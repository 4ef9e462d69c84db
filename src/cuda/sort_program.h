// The CUDA sort / topk kernel minus the launches: a bitonic sort of each slice's (value,
// position) pairs, in shared memory by one block for slices of up to kSortBlockMax elements, in
// global memory with one launch per bitonic step beyond. Compiled by g++ and nvcc (Note
// [Emulated GPU loop]), so tests/cuda/shape_emulated_test.cpp runs both paths on the host.
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/iter_offsets.h"
#include "kernels/offset_calc.h"
#include "kernels/shape_functors.h"
#include "kernels/shape_stubs.h"
#include "kernels/tensor_iter.h"

namespace ember::cuda {

// Note [Bitonic sort of slices]
// Each slice's n elements become pow2 >= n (value, position) pairs, positions n.. padding that
// sorts last. Pairs are ordered by SortBefore on the values and then by position, a strict total
// order, so the bitonic network (not stable by itself) yields exactly the CPU's stable order, and
// topk with sorted=false gets the sorted first k as well. Step (k, j) of the network is pow2 / 2
// independent compare-exchanges; a block does all steps of a slice in shared memory between
// barriers, and larger slices run each step as a launch over every slice's pairs.
inline constexpr int64_t kSortBlockMax = 2048;  // pairs: 2048 * (8 + 4) bytes of shared memory
inline constexpr int kSortMaxThreads = 1024;
inline constexpr int kSortGlobalThreads = 256;

inline int64_t sort_pow2(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// What every sort launch needs: the slices' first elements and the spec's geometry.
struct SortArgs {
  char* data[3];  // values out, self, indices out
  kernels::OffsetCalculator<3, int64_t> slices;
  int64_t n, k, pow2;
  int64_t strides[3];  // bytes along the sorted dim
  bool descending;
};

inline SortArgs make_sort_args(const kernels::TensorIter& it, const kernels::SortSpec& spec) {
  SortArgs args{};
  for (int o = 0; o < 3; ++o) {
    args.data[o] = it.data[o];
    args.strides[o] = spec.strides[o];
  }
  args.slices = kernels::make_offset_calculator<3, int64_t>(it);
  args.n = spec.n;
  args.k = spec.k;
  args.pow2 = sort_pow2(spec.n);
  args.descending = spec.descending;
  return args;
}

namespace detail {

// Whether pair (a, pa) goes before (b, pb) (Note [Bitonic sort of slices]).
template <class T, class P>
EMBER_HOST_DEVICE inline bool pair_before(T a, P pa, T b, P pb, int64_t n, bool descending) {
  if (pa >= n || pb >= n) return pa < pb;
  using M = kernels::opmath_t<T>;
  const kernels::SortBefore<M> before{descending};
  const M x = static_cast<M>(a), y = static_cast<M>(b);
  if (before(x, y)) return true;
  if (before(y, x)) return false;
  return pa < pb;
}

}  // namespace detail

// Pair j (< pow2) of a slice whose first element is at `self`: its value and position.
template <class T, class P>
EMBER_HOST_DEVICE void sort_load(const SortArgs& args, const char* self, T* values, P* positions,
                                 int64_t j) {
  values[j] = j < args.n ? *reinterpret_cast<const T*>(self + j * args.strides[1]) : T(0);
  positions[j] = static_cast<P>(j);
}

// Compare-exchange t (< pow2 / 2) of bitonic step (k, j): pairs i and i + j, ascending where
// bit k of i is clear.
template <class T, class P>
EMBER_HOST_DEVICE void bitonic_exchange(const SortArgs& args, T* values, P* positions, int64_t k,
                                        int64_t j, int64_t t) {
  const int64_t i = t / j * 2 * j + t % j, l = i + j;
  const bool ascending = (i & k) == 0;
  const bool l_first = detail::pair_before(values[l], positions[l], values[i], positions[i], args.n,
                                           args.descending);
  if (l_first == ascending) {
    const T v = values[i];
    values[i] = values[l];
    values[l] = v;
    const P p = positions[i];
    positions[i] = positions[l];
    positions[l] = p;
  }
}

// Output j (< k) of a slice whose outputs start at `out_values` and `out_indices`.
template <class T, class P>
EMBER_HOST_DEVICE void sort_store(const SortArgs& args, char* out_values, char* out_indices,
                                  const T* values, const P* positions, int64_t j) {
  *reinterpret_cast<T*>(out_values + j * args.strides[0]) = values[j];
  *reinterpret_cast<int64_t*>(out_indices + j * args.strides[2]) =
      static_cast<int64_t>(positions[j]);
}

// Step (k, j) of a bitonic network over pow2 elements; the steps in order are
// for (BitonicStep s; s.k <= pow2; s = s.next()). A struct rather than a loop taking a callback:
// the host-side launch loop and the device-side block program share it.
struct BitonicStep {
  int64_t k = 2, j = 1;
  EMBER_HOST_DEVICE BitonicStep next() const {
    return j > 1 ? BitonicStep{k, j / 2} : BitonicStep{2 * k, k};
  }
};

// The whole sort of one slice by one block in shared memory (pow2 <= kSortBlockMax), as a
// sequence of phases: phase(count, work) runs work(t) for t in [0, count), spread over the
// block's threads, and returns after a barrier. The emulated test passes a plain loop.
template <class T, class Phase>
EMBER_HOST_DEVICE void sort_slice_in_block(const SortArgs& args, int64_t slice, T* values,
                                           int32_t* positions, const Phase& phase) {
  const auto at = args.slices.get(slice);
  phase(args.pow2,
        [&](int64_t j) { sort_load(args, args.data[1] + at.at[1], values, positions, j); });
  for (BitonicStep s; s.k <= args.pow2; s = s.next())
    phase(args.pow2 / 2,
          [&](int64_t t) { bitonic_exchange(args, values, positions, s.k, s.j, t); });
  phase(args.k, [&](int64_t j) {
    sort_store(args, args.data[0] + at.at[0], args.data[2] + at.at[2], values, positions, j);
  });
}

// The global-memory path: element e of a launch over (slice, item) pairs, with `scratch_values`
// and `scratch_positions` holding pow2 pairs per slice.
template <class T>
EMBER_HOST_DEVICE void sort_load_global(const SortArgs& args, T* scratch_values,
                                        int64_t* scratch_positions, int64_t e) {
  const int64_t slice = e / args.pow2, j = e % args.pow2;
  const auto at = args.slices.get(slice);
  sort_load(args, args.data[1] + at.at[1], scratch_values + slice * args.pow2,
            scratch_positions + slice * args.pow2, j);
}
template <class T>
EMBER_HOST_DEVICE void bitonic_exchange_global(const SortArgs& args, T* scratch_values,
                                               int64_t* scratch_positions, int64_t k, int64_t j,
                                               int64_t e) {
  const int64_t half = args.pow2 / 2, slice = e / half;
  bitonic_exchange(args, scratch_values + slice * args.pow2, scratch_positions + slice * args.pow2,
                   k, j, e % half);
}
template <class T>
EMBER_HOST_DEVICE void sort_store_global(const SortArgs& args, const T* scratch_values,
                                         const int64_t* scratch_positions, int64_t e) {
  const int64_t slice = e / args.k, j = e % args.k;
  const auto at = args.slices.get(slice);
  sort_store(args, args.data[0] + at.at[0], args.data[2] + at.at[2],
             scratch_values + slice * args.pow2, scratch_positions + slice * args.pow2, j);
}

}  // namespace ember::cuda
