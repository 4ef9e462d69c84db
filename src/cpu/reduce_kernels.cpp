// CPU kernels of reductions (one loop serving every op of kernels/reduce_functors.h) and
// softmax.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include "cpu/column_blocks.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/reduce_dispatch.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {
namespace {

using namespace kernels;

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

template <class Ops>
using acc_of = decltype(std::declval<const Ops&>().identity());

template <class T>
struct IsValueIndex : std::false_type {};
template <class T>
struct IsValueIndex<ValueIndex<T>> : std::true_type {};

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

// Walks the reduced dims in row-major order from a flat index, tracking the input offset.
struct ReducedCursor {
  const ReduceIter& it;
  int64_t idx[detail::kMaxDims];
  int64_t offset = 0;

  ReducedCursor(const ReduceIter& iter, int64_t start) : it(iter) {
    if (it.reduced_numel == 0) return;  // nothing to walk (and a size-0 dim to divide by)
    for (int d = 0; d < it.nreduced; ++d) {
      idx[d] = start % it.reduced_size[d];
      start /= it.reduced_size[d];
      offset += idx[d] * it.reduced_stride[d];
    }
  }
  // Moves n steps along the innermost dim (up to its end), carrying into the outer dims.
  void advance(int64_t n) {
    idx[0] += n;
    offset += n * it.reduced_stride[0];
    for (int d = 0; d + 1 < it.nreduced && idx[d] == it.reduced_size[d]; ++d) {
      offset += it.reduced_stride[d + 1] - idx[d] * it.reduced_stride[d];
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
};

// Folds the reduced elements [begin, end) (flat, row-major) of the output whose input starts at
// `base`.
template <class T, class Ops>
acc_of<Ops> reduce_range(const ReduceIter& it, const Ops& ops, const T* base, int64_t begin,
                         int64_t end) {
  acc_of<Ops> acc = ops.identity();
  if (begin >= end) return acc;
  ReducedCursor cursor(it, begin);
  while (begin < end) {
    int64_t n = std::min(it.reduced_size[0] - cursor.idx[0], end - begin);
    acc = ops.combine(acc, reduce_strip(ops, base + cursor.offset, it.reduced_stride[0], n, begin));
    begin += n;
    cursor.advance(n);
  }
  return acc;
}

template <class Out, class Ops>
void store(const ReduceIter& it, const Ops& ops, int64_t out_offset, const acc_of<Ops>& acc) {
  auto result = ops.project(acc);
  if constexpr (IsValueIndex<decltype(result)>::value) {
    if (it.values) reinterpret_cast<Out*>(it.values)[out_offset] = convert<Out>(result.value);
    if (it.indices) it.indices[out_offset] = result.index;
  } else {
    reinterpret_cast<Out*>(it.values)[out_offset] = convert<Out>(result);
  }
}

// Each output folds its own elements; when there are fewer outputs than threads, each output's
// range is split across the threads instead (a full sum).
template <class T, class Out, class Ops>
void reduce_per_output(const ReduceIter& it, const Ops& ops) {
  const T* in = reinterpret_cast<const T*>(it.input);
  const int64_t total = it.reduced_numel;
  const int threads = num_threads();
  if (it.num_outputs < threads && total >= 2 * kGrainSize) {
    // Not std::vector: for bool accumulators its packed bits would race between threads.
    auto partial = std::make_unique<acc_of<Ops>[]>(static_cast<size_t>(threads));
    for (int64_t o = 0; o < it.num_outputs; ++o) {
      int64_t in_offset, out_offset;
      it.kept_offsets(o, &in_offset, &out_offset);
      parallel_for(threads, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c)
          partial[c] = reduce_range(it, ops, in + in_offset, total * c / threads,
                                    total * (c + 1) / threads);
      });
      acc_of<Ops> acc = ops.identity();
      for (int c = 0; c < threads; ++c) acc = ops.combine(acc, partial[c]);
      store<Out>(it, ops, out_offset, acc);
    }
    return;
  }
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(total, 1));
  parallel_for(it.num_outputs, grain, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      int64_t in_offset, out_offset;
      it.kept_offsets(o, &in_offset, &out_offset);
      store<Out>(it, ops, out_offset, reduce_range(it, ops, in + in_offset, 0, total));
    }
  });
}

// Folds rows [row_begin, row_end) of `width` neighbouring outputs whose inputs start at `base`
// into out[0, width), through the cascade of Note [Reduction speed and accuracy]. `levels` is
// scratch space of kCascadeLevels * width accumulators.
template <class T, class Ops>
void accumulate_rows(const ReduceIter& it, const Ops& ops, const T* base, int64_t width,
                     int64_t row_begin, int64_t row_end, acc_of<Ops>* levels, acc_of<Ops>* out) {
  using M = opmath_t<T>;
  std::fill(levels, levels + kCascadeLevels * width, ops.identity());
  ReducedCursor cursor(it, row_begin);
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* row = base + cursor.offset;
    for (int64_t j = 0; j < width; ++j) levels[j] = ops.reduce(levels[j], static_cast<M>(row[j]), r);
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
  for (int64_t j = 0; j < width; ++j) {
    out[j] = levels[j];
    for (int l = 1; l < kCascadeLevels; ++l) out[j] = ops.combine(levels[l * width + j], out[j]);
  }
}

// Reduction over outer dims with the innermost kept dim contiguous (sum over dim 0 of [N, M]):
// accumulate whole rows of up to kColumnBlock outputs (long contiguous loads) instead of
// striding per output. With fewer column blocks than threads, the rows are split instead.
template <class T, class Out, class Ops>
void reduce_columns(const ReduceIter& it, const Ops& ops) {
  using Acc = acc_of<Ops>;
  const T* in = reinterpret_cast<const T*>(it.input);
  const int64_t columns = it.kept_size[0];
  const int64_t width = std::min(columns, kColumnBlock);
  const int64_t blocks_per_row = (columns + width - 1) / width;
  const int64_t tasks = it.num_outputs / columns * blocks_per_row;
  const int64_t rows = it.reduced_numel;
  const int threads = num_threads();
  // Input and output offsets of a task's first column; its width.
  auto task_geometry = [&](int64_t task, int64_t* in_offset, int64_t* out_offset) {
    int64_t first_column = task % blocks_per_row * width;
    it.kept_offsets(task / blocks_per_row * columns + first_column, in_offset, out_offset);
    return std::min(width, columns - first_column);
  };

  if (tasks < threads && rows * width >= 2 * kGrainSize) {
    auto partial = std::make_unique<Acc[]>(static_cast<size_t>(threads * width));
    for (int64_t task = 0; task < tasks; ++task) {
      int64_t in_offset, out_offset;
      int64_t n = task_geometry(task, &in_offset, &out_offset);
      parallel_for(threads, 1, [&](int64_t b, int64_t e) {
        auto levels = std::make_unique<Acc[]>(static_cast<size_t>(kCascadeLevels * n));
        for (int64_t c = b; c < e; ++c)
          accumulate_rows(it, ops, in + in_offset, n, rows * c / threads, rows * (c + 1) / threads,
                          levels.get(), partial.get() + c * width);
      });
      for (int64_t j = 0; j < n; ++j) {
        Acc acc = partial[j];
        for (int c = 1; c < threads; ++c) acc = ops.combine(acc, partial[c * width + j]);
        store<Out>(it, ops, out_offset + j, acc);
      }
    }
    return;
  }
  int64_t grain = std::max<int64_t>(1, kGrainSize / (std::max<int64_t>(rows, 1) * width));
  parallel_for(tasks, grain, [&](int64_t b, int64_t e) {
    auto levels = std::make_unique<Acc[]>(static_cast<size_t>(kCascadeLevels * width));
    auto result = std::make_unique<Acc[]>(static_cast<size_t>(width));
    for (int64_t task = b; task < e; ++task) {
      int64_t in_offset, out_offset;
      int64_t n = task_geometry(task, &in_offset, &out_offset);
      accumulate_rows(it, ops, in + in_offset, n, 0, rows, levels.get(), result.get());
      for (int64_t j = 0; j < n; ++j) store<Out>(it, ops, out_offset + j, result[j]);
    }
  });
}

template <class T, class Out, class Ops>
void run_reduce(const ReduceIter& it, const Ops& ops) {
  if (it.num_outputs == 0) return;
  bool outer_reduction = it.nkept > 0 && it.kept_in_stride[0] == 1 && it.kept_out_stride[0] == 1 &&
                         it.reduced_stride[0] != 1;
  if (outer_reduction) reduce_columns<T, Out>(it, ops);
  else reduce_per_output<T, Out>(it, ops);
}

// dispatch_reduce's loop on the CPU.
struct CpuReduceLoop {
  template <class T, class Out, class Ops>
  void run(const ReduceIter& it, const Ops& ops) const {
    run_reduce<T, Out>(it, ops);
  }
};

// One softmax row (the reduced dim innermost): max, exp and sum in one pass over the input, then
// one pass over the output. kLog is a template parameter so that no branch sits in the loops
// (a conditional store keeps them scalar).
template <bool kLog, class T>
[[gnu::always_inline]] inline void softmax_row(const T* x, T* y, int64_t n) {
  using M = opmath_t<T>;
  constexpr int kLanes = lanes_of<M>;
  const M max = reduce_contiguous(ExtremumOp<M, true>{}, x, n, 0);
  M sums[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) {
      M e = softmax_exp(static_cast<M>(x[i + j]) - max);
      if constexpr (!kLog) y[i + j] = static_cast<T>(e);
      sums[j] += e;
    }
  for (; i < n; ++i) {
    M e = softmax_exp(static_cast<M>(x[i]) - max);
    if constexpr (!kLog) y[i] = static_cast<T>(e);
    sums[0] += e;
  }
  M sum = reduce_contiguous(SumOp<M>{}, sums, kLanes, 0);
  if constexpr (kLog) {  // (x - max) - log(sum): subtracting max first keeps large x precise
    const M log_sum = std::log(sum);
    for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>((static_cast<M>(x[k]) - max) - log_sum);
  } else {
    const M scale = M(1) / sum;
    for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>(static_cast<M>(y[k]) * scale);
  }
}

// Softmax over a dim with inner > 1: the same steps on a block of columns at a time.
template <bool kLog, class T>
void softmax_columns(const T* x, T* y, const Lines& lines) {
  using M = opmath_t<T>;
  const ExtremumOp<M, true> max_op;
  for_each_column_block(lines, [&](int64_t base, int64_t width) {
    M max[kColumnBlock], sum[kColumnBlock];
    for (int64_t k = 0; k < width; ++k) {
      max[k] = max_op.identity();
      sum[k] = 0;
    }
    for (int64_t i = 0; i < lines.n; ++i)
      for (int64_t k = 0; k < width; ++k)
        max[k] = max_op.combine(max[k], static_cast<M>(x[base + i * lines.inner + k]));
    for (int64_t i = 0; i < lines.n; ++i)
      for (int64_t k = 0; k < width; ++k) {
        int64_t at = base + i * lines.inner + k;
        M e = softmax_exp(static_cast<M>(x[at]) - max[k]);
        if constexpr (!kLog) y[at] = static_cast<T>(e);
        sum[k] += e;
      }
    for (int64_t k = 0; k < width; ++k) sum[k] = kLog ? std::log(sum[k]) : M(1) / sum[k];
    for (int64_t i = 0; i < lines.n; ++i)
      for (int64_t k = 0; k < width; ++k) {
        int64_t at = base + i * lines.inner + k;
        if constexpr (kLog) y[at] = static_cast<T>((static_cast<M>(x[at]) - max[k]) - sum[k]);
        else y[at] = static_cast<T>(static_cast<M>(y[at]) * sum[k]);
      }
  });
}

template <bool kLog, class T>
void softmax_rows(const T* x, T* y, int64_t n, int64_t begin, int64_t end) {
  for (int64_t row = begin; row < end; ++row) softmax_row<kLog>(x + row * n, y + row * n, n);
}

template <bool kLog, class T>
void softmax_typed(const T* x, T* y, const Lines& lines) {
  if (lines.inner > 1) return softmax_columns<kLog>(x, y, lines);
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(lines.n, 1));
  parallel_for(lines.outer, grain,
               [&](int64_t b, int64_t e) { softmax_rows<kLog>(x, y, lines.n, b, e); });
}

// Softmax of a whole tensor whose element type is T.
template <class T>
void softmax_tensor(const Tensor& in, const Tensor& out, int64_t dim, bool log) {
  const Lines lines(in.sizes().data(), in.dim(), dim);
  if (in.numel() == 0) return;
  const T* x = static_cast<const T*>(in.data_ptr());
  T* y = static_cast<T*>(out.data_ptr());
  if (log) softmax_typed<true>(x, y, lines);
  else softmax_typed<false>(x, y, lines);
}

}  // namespace

void reduce_kernel(const ReduceIter& it, ReduceKind kind, const ReduceParams& params) {
#ifdef EMBER_CPU_VECTOR_COPY
  const CpuReduceLoop loop;
  if (it.input_dtype == kFloat32) return dispatch_reduce_typed<float>(it, kind, params, loop);
  if (it.input_dtype == kFloat64) return dispatch_reduce_typed<double>(it, kind, params, loop);
  baseline::reduce_kernel(it, kind, params);
#else
  dispatch_reduce(it, kind, params, CpuReduceLoop{});
#endif
}

void softmax_kernel(const Tensor& in, const Tensor& out, int64_t dim, bool log) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (in.dtype() == kFloat32) return softmax_tensor<float>(in, out, dim, log);
  if (in.dtype() == kFloat64) return softmax_tensor<double>(in, out, dim, log);
  baseline::softmax_kernel(in, out, dim, log);
#else
  dispatch_floating(in.dtype(), "softmax", [&](auto tag) {
    softmax_tensor<typename decltype(tag)::type>(in, out, dim, log);
  });
#endif
}

void register_reduce_kernels() {
  reduce_stub.set(DeviceType::CPU, &reduce_kernel);
  softmax_stub.set(DeviceType::CPU, &softmax_kernel);
}

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
