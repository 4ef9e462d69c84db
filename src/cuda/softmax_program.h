// The CUDA softmax and log_softmax minus the launch: the block program of one launch (Note
// [Block programs]). Compiled by g++ and nvcc; tests/cuda/reduce_emulated_test.cpp runs it on
// the host.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cuda/block_program.h"
#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/reduce_functors.h"

namespace ember::cuda {

// Each line is one softmax: its block lanes fold their elements' maximum, then the sum of
// exp(x - max), each merged with combine_lanes and shared by broadcast_lanes, then write. The
// steps and functors are the CPU kernel's (cpu/reduce_kernels.cpp), only the order of the sum
// differs. Rows (inner == 1) put the lanes along x, columns across (see BlockShape).
template <class T>
struct SoftmaxArgs {
  const T* input;
  T* output;
  Lines lines;
  BlockShape shape;
  bool log;
};

template <class T>
SoftmaxArgs<T> make_softmax_args(const T* input, T* output, const Lines& lines, bool log) {
  return {input, output, lines, block_shape(lines.n, lines.count(), lines.inner == 1), log};
}

// The grid, and the dynamic shared memory of a block (combine_lanes').
template <class T>
int64_t softmax_blocks(const SoftmaxArgs<T>& a) {
  return (a.lines.count() + a.shape.lines() - 1) / a.shape.lines();
}
template <class T>
size_t shared_bytes(const SoftmaxArgs<T>& a) {
  return static_cast<size_t>(a.shape.threads()) * sizeof(kernels::opmath_t<T>);
}

// Loads of a lane in flight before it uses the first: a warp reading its row one element at a
// time kept an H200's memory half idle (W5, 4096 rows of 1024: 990 GB/s against PyTorch's 1590).
inline constexpr int kSoftmaxLoads = 8;

// f(x, element offset) for the elements of thread t's line that its lane takes, x loaded (as the
// opmath type) kSoftmaxLoads at a time.
template <class T, class F>
EMBER_HOST_DEVICE void for_lane_values(const SoftmaxArgs<T>& a, int64_t block, int t, const F& f) {
  using M = kernels::opmath_t<T>;
  const int64_t line = block * a.shape.lines() + a.shape.line_of(t);
  if (line >= a.lines.count()) return;
  const int64_t start = a.lines.start(line), inner = a.lines.inner;
  for_strided_loads<kSoftmaxLoads>(
      a.shape.lane_of(t), a.lines.n, a.shape.lanes(),
      [&](int64_t k) { return M(a.input[start + k * inner]); },
      [&](M x, int64_t k) { f(x, start + k * inner); });
}

template <class B, class T>
EMBER_HOST_DEVICE void softmax_block(B& b, const SoftmaxArgs<T>& a, int64_t block) {
  using M = kernels::opmath_t<T>;
  const kernels::ExtremumOp<M, true> max_op;
  const kernels::SumOp<M> sum_op;
  auto max = b.template regs<M>();
  b.each([&](int t) {
    M m = max_op.identity();
    for_lane_values(a, block, t, [&](M x, int64_t) { m = max_op.reduce(m, x, 0); });
    max[t] = m;
  });
  combine_lanes(b, a.shape, max_op, max);
  broadcast_lanes(b, a.shape, max);
  auto sum = b.template regs<M>();
  b.each([&](int t) {
    M s = sum_op.identity();
    for_lane_values(a, block, t, [&](M x, int64_t) {
      s = sum_op.reduce(s, kernels::vector_exp(x - max[t]), 0);
    });
    sum[t] = s;
  });
  combine_lanes(b, a.shape, sum_op, sum);
  broadcast_lanes(b, a.shape, sum);
  b.each([&](int t) {
    const M m = max[t];
    if (a.log) {  // (x - max) - log(sum): subtracting max first keeps large x precise
      const M log_sum = std::log(sum[t]);
      for_lane_values(a, block, t, [&](M x, int64_t at) { a.output[at] = T((x - m) - log_sum); });
    } else {
      const M scale = M(1) / sum[t];
      for_lane_values(a, block, t, [&](M x, int64_t at) {
        a.output[at] = T(kernels::vector_exp(x - m) * scale);
      });
    }
  });
}

}  // namespace ember::cuda
