// Block programs: the cooperative CUDA kernels (reductions, softmax, cumsum) written once for the
// GPU and for a host emulation of it, with the block shape they share. Compiled by g++ and nvcc;
// no CUDA header (Note [Block programs]).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ember/macros.h"
#include "kernels/lines.h"

namespace ember::cuda {

// Note [Block programs]
// The threads of a block combine partial results through warp shuffles and shared memory, so a
// cooperative kernel cannot be checked thread by thread as the elementwise loop is (Note
// [Emulated GPU loop]). Instead its body is a block program: a function template over an
// executor `b` whose statements are
//   b.each(f)                     f(t) for thread t: this thread on the GPU, every thread of the
//                                 block in turn on the host;
//   b.sync()                      __syncthreads();
//   b.regs<V>()                   one V per thread (a register on the GPU, an array on the host),
//                                 indexed by t inside `each`;
//   b.shared<V>()                 the block's dynamic shared memory as V[];
//   b.warp_reduce(r, width, ops)  r = ops.combine(r, r of the lane `offset` above) for offset =
//                                 width/2 .. 1 (__shfl_down_sync): lane 0 of every `width` lanes
//                                 ends with their combination;
//   b.warp_exclusive_scan(r, ops) r = the combination of r over the lower lanes of the warp
//                                 (__shfl_up_sync), ops.identity() in lane 0.
// DeviceBlock (cuda/reduce_kernels.cu) is the GPU's executor; tests/cuda/reduce_emulated_test.cpp
// runs each statement for every thread before the next, with lane arrays for the shuffles. The two
// orders agree exactly when threads communicate only through collectives and barrier-separated
// shared memory, which the emulation checks (a shared byte touched by two threads between two
// barriers, one of them writing, or read before any write, fails the test), so it also catches a
// missing __syncthreads().
// Collectives are program-level statements, never inside `each`, so every thread of the block
// reaches them (the shuffles use the full warp mask), and block shapes are whole warps.

inline constexpr int kWarpSize = 32;

// use(load(i), i) for i = first, first + step, ... below end, kLoads loads issued before the first
// use so that their latencies overlap: a lane reading one element at a time leaves most of a
// GPU's memory bandwidth idle. The reductions' and softmax's lanes read their lines so.
template <int kLoads, class Load, class Use>
EMBER_HOST_DEVICE void for_strided_loads(int64_t first, int64_t end, int64_t step, const Load& load,
                                         const Use& use) {
  using V = std::remove_cv_t<decltype(load(first))>;
  int64_t i = first;
  for (; i + (kLoads - 1) * step < end; i += kLoads * step) {
    V x[kLoads];
    for (int k = 0; k < kLoads; ++k) x[k] = load(i + k * step);
    for (int k = 0; k < kLoads; ++k) use(x[k], i + k * step);
  }
  for (; i < end; i += step) use(load(i), i);
}

inline constexpr int kMaxBlockThreads = 512;

// The smallest power of two >= n, for 1 <= n <= kMaxBlockThreads (larger n give the cap).
constexpr int pow2_at_least(int64_t n) {
  int p = 1;
  while (p < n && p < kMaxBlockThreads) p *= 2;
  return p;
}

// How a block's threads map onto independent lines (the outputs of a reduction, the rows of a
// softmax), each line folded by several threads, its lanes. Thread t is (t % x, t / x); along_x:
// the x threads of a row are one line's lanes (neighbouring elements of a contiguous line, so a
// warp reads one run), else the y threads of a column are (neighbouring lines are neighbours in
// memory, so a warp reads one run across lines).
struct BlockShape {
  int x = kWarpSize, y = 1;  // powers of two; x * y is a multiple of kWarpSize
  bool along_x = true;

  EMBER_HOST_DEVICE int threads() const { return x * y; }
  EMBER_HOST_DEVICE int lines() const { return along_x ? y : x; }
  EMBER_HOST_DEVICE int lanes() const { return along_x ? x : y; }
  EMBER_HOST_DEVICE int line_of(int t) const { return along_x ? t / x : t % x; }
  EMBER_HOST_DEVICE int lane_of(int t) const { return along_x ? t % x : t / x; }
};

// x, the dim whose neighbouring threads touch neighbouring memory, gets up to a warp first; y
// takes as many as fit; x grows if y ran out (one long line gets the whole block): PyTorch's
// ReduceConfig split.
inline BlockShape block_shape(int64_t line_length, int64_t lines, bool along_x) {
  const int along = pow2_at_least(along_x ? line_length : lines);
  const int across = pow2_at_least(along_x ? lines : line_length);
  BlockShape shape;
  shape.along_x = along_x;
  shape.x = std::min(along, kWarpSize);
  shape.y = std::min(across, kMaxBlockThreads / shape.x);
  shape.x = std::min(along, kMaxBlockThreads / shape.y);
  shape.y = std::max(shape.y, kWarpSize / shape.x);  // whole warps: idle rows pad a short block
  return shape;
}

using kernels::Lines;  // softmax's and cumsum's lines (kernels/lines.h)

// Combines the values `v` of each line's lanes; lane 0 of every line ends with the line's result
// (the other lanes with partial ones). Uses shape.threads() V of shared memory and leaves it free
// (every thread past its last read) on return.
template <class B, class Ops, class Regs>
EMBER_HOST_DEVICE void combine_lanes(B& b, const BlockShape& shape, const Ops& ops, Regs& v) {
  using V = std::remove_reference_t<decltype(v[0])>;
  auto s = b.template shared<V>();
  if (shape.along_x) {
    // A row's lanes are neighbouring threads: shuffles within each warp, then one more round of
    // shuffles over the warps' results, passed through shared memory.
    b.warp_reduce(v, shape.x < kWarpSize ? shape.x : kWarpSize, ops);
    if (shape.x <= kWarpSize) return;
    const int warps = shape.x / kWarpSize;
    b.each([&](int t) {
      if (t % kWarpSize == 0) s[t / kWarpSize] = v[t];
    });
    b.sync();
    b.each([&](int t) {
      const int lane = shape.lane_of(t);
      if (lane < warps) v[t] = s[shape.line_of(t) * warps + lane];
      else v[t] = ops.identity();
    });
    b.sync();
    b.warp_reduce(v, warps, ops);
    return;
  }
  // A column's lanes are in different warps: a tree over shared memory, halving the rows.
  if (shape.y == 1) return;
  b.each([&](int t) { s[t] = v[t]; });
  for (int half = shape.y / 2; half > 0; half /= 2) {
    b.sync();
    b.each([&](int t) {
      if (shape.lane_of(t) < half) s[t] = ops.combine(s[t], s[t + half * shape.x]);
    });
  }
  b.sync();
  b.each([&](int t) {
    if (shape.lane_of(t) == 0) v[t] = s[t];
  });
  b.sync();
}

// After combine_lanes: every lane of a line gets the line's result (softmax needs it everywhere).
template <class B, class Regs>
EMBER_HOST_DEVICE void broadcast_lanes(B& b, const BlockShape& shape, Regs& v) {
  using V = std::remove_reference_t<decltype(v[0])>;
  auto s = b.template shared<V>();
  b.each([&](int t) {
    if (shape.lane_of(t) == 0) s[shape.line_of(t)] = v[t];
  });
  b.sync();
  b.each([&](int t) { v[t] = s[shape.line_of(t)]; });
  b.sync();
}

}  // namespace ember::cuda
