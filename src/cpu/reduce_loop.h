// The CPU reduce loop: one loop serving every op of kernels/reduce_functors.h over a ReduceIter,
// for the reduce_*_kernels.cpp files (Note [Reduction compile units] in cpu/reduce_kernels.h) and
// softmax, which folds its rows with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "cpu/column_blocks.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "cpu/reduce_kernels.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/dtype_dispatch.h"
#include "kernels/offset_calc.h"
#include "kernels/reduce_dispatch.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_geometry.h"
#include "kernels/reduce_iter.h"
#include "kernels/reduce_output.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {

// Note [Reduction speed and accuracy]
// Contiguous runs are folded into lanes_of<Acc> independent accumulators, 256 bytes of them
// (four AVX-512 or eight AVX2 registers: enough additions in flight to hide their latency), and
// runs longer than kLeafAdds times that are split in halves whose results are combined
// (pairwise summation), so no accumulator takes more than kLeafAdds sequential additions before
// it is merged with one of similar size: a float sum of 2^24 elements keeps about 1e-7 error, as
// PyTorch's cascade sum does, instead of the 1e-4 of one running accumulator. The lane count
// depends on the type only, not on the CPU copy, so every copy adds in the same order.
// Reductions over outer dims accumulate a block of kColumnBlock neighbouring outputs row by row
// (contiguous loads) into a cascade of kCascadeLevels accumulators for the same reason.
template <class Acc>
constexpr int lanes_of = std::clamp(256 / static_cast<int>(sizeof(Acc)), 16, 64);
constexpr int kLeafAdds = 64;
constexpr int kCascadeLevels = 6;  // level l holds the sum of 16^l rows; 16^5 before the top
constexpr int64_t kCascadeFanIn = 16;

using kernels::acc_of;
using kernels::opmath_t;
using kernels::ReduceGeometry;
using kernels::ReduceIter;
using kernels::ReduceOutputs;

template <class T, class Ops>
acc_of<Ops> reduce_contiguous(const Ops& ops, const T* x, int64_t n, int64_t first_index) {
  using M = opmath_t<T>;
  constexpr int kLanes = lanes_of<acc_of<Ops>>;
  if (n > kLeafAdds * kLanes) {
    int64_t half = (n / 2 + kLanes - 1) / kLanes * kLanes;
    return ops.combine(reduce_contiguous(ops, x, half, first_index),
                       reduce_contiguous(ops, x + half, n - half, first_index + half));
  }
  acc_of<Ops> acc[kLanes];
  for (auto& a : acc) a = ops.identity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j)
      acc[j] = ops.reduce(acc[j], static_cast<M>(x[i + j]), first_index + i + j);
  for (; i < n; ++i) acc[0] = ops.reduce(acc[0], static_cast<M>(x[i]), first_index + i);
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int j = 0; j < width; ++j) acc[j] = ops.combine(acc[j], acc[j + width]);
  return acc[0];
}

template <class T, class Ops>
acc_of<Ops> reduce_strip(const Ops& ops, const T* x, int64_t stride, int64_t n,
                         int64_t first_index) {
  if (stride == 1) return reduce_contiguous(ops, x, n, first_index);
  acc_of<Ops> acc = ops.identity();
  for (int64_t i = 0; i < n; ++i)
    acc = ops.reduce(acc, static_cast<opmath_t<T>>(x[i * stride]), first_index + i);
  return acc;
}

// Folds the reduced elements [begin, end) (flat, row-major) of the output whose input starts at
// `base`.
template <class T, class Ops>
acc_of<Ops> reduce_range(const ReduceGeometry& g, const Ops& ops, const T* base, int64_t begin,
                         int64_t end) {
  acc_of<Ops> acc = ops.identity();
  if (begin >= end) return acc;
  kernels::OffsetCursor<1> cursor(g.reduced, begin);
  while (begin < end) {
    const int64_t n = std::min(cursor.run_left(), end - begin);
    acc = ops.combine(acc, reduce_strip(ops, base + cursor.offset(), g.reduced_step(), n, begin));
    begin += n;
    cursor.advance(n);
  }
  return acc;
}

// Each output folds its own elements; when there are fewer outputs than threads, each output's
// range is split across the threads instead (a full sum).
template <class T, class Out, class Ops>
void reduce_per_output(const ReduceIter& it, const Ops& ops, const ReduceOutputs<Out>& out) {
  const ReduceGeometry& g = it.geometry;
  const T* in = reinterpret_cast<const T*>(it.input);
  const int64_t total = g.reduced_numel;
  const int threads = num_threads();
  if (g.num_outputs < threads && total >= 2 * kGrainSize) {
    // Not std::vector: for bool accumulators its packed bits would race between threads.
    auto partial = std::make_unique<acc_of<Ops>[]>(static_cast<size_t>(threads));
    for (int64_t o = 0; o < g.num_outputs; ++o) {
      const auto at = g.kept_offsets(o);
      parallel_for(threads, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c)
          partial[c] =
              reduce_range(g, ops, in + at.in, total * c / threads, total * (c + 1) / threads);
      });
      acc_of<Ops> acc = ops.identity();
      for (int c = 0; c < threads; ++c) acc = ops.combine(acc, partial[c]);
      out.store(at.out, ops, acc);
    }
    return;
  }
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(total, 1));
  parallel_for(g.num_outputs, grain, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      const auto at = g.kept_offsets(o);
      out.store(at.out, ops, reduce_range(g, ops, in + at.in, 0, total));
    }
  });
}

// Folds rows [row_begin, row_end) of `width` neighbouring outputs whose inputs start at `base`
// into out[0, width), through the cascade of Note [Reduction speed and accuracy]. `levels` is
// scratch space of kCascadeLevels * width accumulators.
template <class T, class Ops>
void accumulate_rows(const ReduceGeometry& g, const Ops& ops, const T* base, int64_t width,
                     int64_t row_begin, int64_t row_end, acc_of<Ops>* levels, acc_of<Ops>* out) {
  using M = opmath_t<T>;
  std::fill(levels, levels + kCascadeLevels * width, ops.identity());
  if (row_begin < row_end) {
    kernels::OffsetCursor<1> cursor(g.reduced, row_begin);
    for (int64_t r = row_begin; r < row_end; ++r) {
      const T* row = base + cursor.offset();
      for (int64_t j = 0; j < width; ++j)
        levels[j] = ops.reduce(levels[j], static_cast<M>(row[j]), r);
      cursor.advance(1);
      // Every 16 rows a level is full: fold it into the next one.
      int64_t count = r - row_begin + 1;
      for (int l = 0; l + 1 < kCascadeLevels && count % kCascadeFanIn == 0; ++l) {
        count /= kCascadeFanIn;
        acc_of<Ops>* full = levels + l * width;
        acc_of<Ops>* next = full + width;
        for (int64_t j = 0; j < width; ++j) {
          next[j] = ops.combine(next[j], full[j]);
          full[j] = ops.identity();
        }
      }
    }
  }
  for (int64_t j = 0; j < width; ++j) {
    out[j] = levels[j];
    for (int l = 1; l < kCascadeLevels; ++l) out[j] = ops.combine(levels[l * width + j], out[j]);
  }
}

// An outer reduction (ReduceGeometry::is_outer_reduction; sum over dim 0 of [N, M]): accumulate
// whole rows of up to kColumnBlock outputs (long contiguous loads) instead of striding per
// output. With fewer column blocks than threads, the rows are split instead.
template <class T, class Out, class Ops>
void reduce_columns(const ReduceIter& it, const Ops& ops, const ReduceOutputs<Out>& out) {
  using Acc = acc_of<Ops>;
  const ReduceGeometry& g = it.geometry;
  const T* in = reinterpret_cast<const T*>(it.input);
  const int64_t columns = g.kept.sizes[0];
  const int64_t width = std::min(columns, kColumnBlock);
  const int64_t blocks_per_row = (columns + width - 1) / width;
  const int64_t tasks = g.num_outputs / columns * blocks_per_row;
  const int64_t rows = g.reduced_numel;
  const int threads = num_threads();
  // The offsets of a task's first column (neighbouring columns are neighbours in the input and
  // the output); its width.
  auto task_geometry = [&](int64_t task, ReduceGeometry::KeptOffsets* at) {
    int64_t first_column = task % blocks_per_row * width;
    *at = g.kept_offsets(task / blocks_per_row * columns + first_column);
    return std::min(width, columns - first_column);
  };

  if (tasks < threads && rows * width >= 2 * kGrainSize) {
    auto partial = std::make_unique<Acc[]>(static_cast<size_t>(threads * width));
    for (int64_t task = 0; task < tasks; ++task) {
      ReduceGeometry::KeptOffsets at;
      int64_t n = task_geometry(task, &at);
      parallel_for(threads, 1, [&](int64_t b, int64_t e) {
        auto levels = std::make_unique<Acc[]>(static_cast<size_t>(kCascadeLevels * n));
        for (int64_t c = b; c < e; ++c)
          accumulate_rows(g, ops, in + at.in, n, rows * c / threads, rows * (c + 1) / threads,
                          levels.get(), partial.get() + c * width);
      });
      for (int64_t j = 0; j < n; ++j) {
        Acc acc = partial[j];
        for (int c = 1; c < threads; ++c) acc = ops.combine(acc, partial[c * width + j]);
        out.store(at.out + j, ops, acc);
      }
    }
    return;
  }
  int64_t grain = std::max<int64_t>(1, kGrainSize / (std::max<int64_t>(rows, 1) * width));
  parallel_for(tasks, grain, [&](int64_t b, int64_t e) {
    auto levels = std::make_unique<Acc[]>(static_cast<size_t>(kCascadeLevels * width));
    auto result = std::make_unique<Acc[]>(static_cast<size_t>(width));
    for (int64_t task = b; task < e; ++task) {
      ReduceGeometry::KeptOffsets at;
      int64_t n = task_geometry(task, &at);
      accumulate_rows(g, ops, in + at.in, n, 0, rows, levels.get(), result.get());
      for (int64_t j = 0; j < n; ++j) out.store(at.out + j, ops, result[j]);
    }
  });
}

// Note [Reductions in the vector copies]
// Some ops run as many instructions per element in the AVX2 copy as in the baseline (callgrind,
// float32): arg-extremums (a value-index pair per lane), logsumexp and the general p-norm (libm's
// exp, log and pow per element); the others take 1.3 to 9 times fewer. The vector copies hand those
// ops to the baseline copy instead of compiling them again (about a quarter of each copy's
// reduction code), as they hand the unary ops that call libm (Note [CPU capabilities]).
#ifdef EMBER_CPU_VECTOR_COPY
inline constexpr bool kVectorCopy = true;
#else
inline constexpr bool kVectorCopy = false;
#endif
template <class Ops>
inline constexpr bool kGainsFromVectors = true;
template <class Acc, bool kMax>
inline constexpr bool kGainsFromVectors<kernels::ArgExtremumOp<Acc, kMax>> = false;
template <class Acc>
inline constexpr bool kGainsFromVectors<kernels::LogSumExpOp<Acc>> = false;
template <class Acc>
inline constexpr bool kGainsFromVectors<kernels::NormOp<Acc, kernels::NormKind::General>> = false;

// dispatch_reduce's loop on the CPU; `kind` and `params` go with an op a vector copy hands to
// the baseline copy.
struct CpuReduceLoop {
  kernels::ReduceKind kind;
  const kernels::ReduceParams& params;

  template <class T, class Out, class Ops>
  void run(const ReduceIter& it, const Ops& ops) const {
    if constexpr (kVectorCopy && !kGainsFromVectors<Ops>) {
      baseline::reduce_kernel(it, kind, params);
    } else if (it.geometry.num_outputs > 0) {
      const ReduceOutputs<Out> out{reinterpret_cast<Out*>(it.values), it.indices};
      if (it.geometry.is_outer_reduction()) reduce_columns<T>(it, ops, out);
      else reduce_per_output<T>(it, ops, out);
    }
  }
};

template <class T>
void reduce_typed(const ReduceIter& it, kernels::ReduceKind kind,
                  const kernels::ReduceParams& params) {
  kernels::dispatch_reduce_typed<T>(it, kind, params, CpuReduceLoop{kind, params});
}

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
