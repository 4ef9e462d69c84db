// The CUDA scans (cumsum, cumprod) minus the launch: the plan chosen on the host, the
// one-thread-per-line scan and the block programs of a block scan and of a tile's fold
// (Note [Block programs]). Each program takes the scan's functor, kernels::SumOp or ProdOp over
// scan_acc_t<T> (kernels::with_scan_op picks it). Compiled by g++ and nvcc;
// tests/cuda/reduce_emulated_test.cpp runs it on the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/block_program.h"
#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/reduce_functors.h"

namespace ember::cuda {

// Note [CUDA scan plan]
// Written for cumsum; cumprod runs the same plan with a product for the sum.
// With enough lines to fill the GPU, or short ones, each thread scans one line in the CPU's
// order (so the results are the CPU's exactly); for inner > 1 neighbouring threads then read
// neighbouring memory. Otherwise (few long lines, or contiguous rows longer than a warp's
// worth) one block scans each line, chunk by chunk: every thread folds kScanValues neighbouring
// elements, a warp scan and a scan over the warps' totals (through shared memory) give each
// thread the sum before its elements, and the chunk's total carries into the next chunk.
// A block works on one SM, so when the lines are too few to fill the GPU with blocks and longer
// than a tile, each line is cut into tiles of kScanTile elements, one block each, scanned in
// three launches (reduce-then-scan, as CUB's device-wide scan): every block sums its tile into
// `totals`, the scan itself scans the totals of each line in place (a problem kScanTile times
// smaller), then every block scans its tile starting from the total of the tiles before it. The
// input is read twice, but every SM works.
inline constexpr int kScanValues = 4;
inline constexpr int64_t kScanShortLine = 2 * kWarpSize;
inline constexpr int kScanLineThreads = 128;  // block size of the one-line-per-thread launch
inline constexpr int64_t kScanTile = int64_t{kMaxBlockThreads} * kScanValues * 4;
inline constexpr int kScanBlocksPerSm = 4;  // of kMaxBlockThreads: 2048 threads fill an SM

template <class T>
struct ScanArgs {
  const T* input;
  T* output;
  Lines lines;
  bool block_scan;
  int threads;  // per block: a block scan's width, or kScanLineThreads
  // Block scans: each line is cut into `tiles` tiles of tile_length elements (the last one
  // shorter), block b scanning tile b % tiles of line b / tiles. With more than one tile, the
  // launcher points `totals` at lines.count() * tiles accumulators: the tiles' folds, then
  // (scanned in place along each line) the fold of each line up to the end of each tile.
  int64_t tiles = 1, tile_length = 1;
  kernels::scan_acc_t<T>* totals = nullptr;

  EMBER_HOST_DEVICE int64_t blocks() const { return lines.count() * tiles; }
};

template <class T>
ScanArgs<T> make_scan_args(const T* input, T* output, const Lines& lines, int sm_count) {
  const bool few_lines = lines.count() < int64_t{kMaxBlockThreads} * std::max(sm_count, 1);
  const bool block_scan = lines.n > kScanShortLine && (lines.inner == 1 || few_lines);
  const int threads =
      block_scan ? std::max(pow2_at_least((lines.n + kScanValues - 1) / kScanValues), kWarpSize)
                 : kScanLineThreads;
  const bool split = block_scan && lines.n > kScanTile &&
                     lines.count() < int64_t{kScanBlocksPerSm} * std::max(sm_count, 1);
  const int64_t tile_length = split ? kScanTile : lines.n;
  return {input,      output, lines, block_scan, threads, (lines.n + tile_length - 1) / tile_length,
          tile_length};
}

// The dynamic shared memory of a block scan: one total per warp, rounded up to 16 bytes. nvcc
// reads 8-byte totals two at a time (one 16-byte load) in scan_block's loop over the warps, the
// last pair too when the count is odd: compute-sanitizer found a one-warp scan of int64 reading
// past its 8 bytes.
template <class T>
size_t shared_bytes(const ScanArgs<T>& a) {
  if (!a.block_scan) return 0;
  const size_t bytes = static_cast<size_t>(a.threads / kWarpSize) * sizeof(kernels::scan_acc_t<T>);
  return (bytes + 15) / 16 * 16;
}

// One thread's line, in the CPU kernel's order.
template <class Op, class T>
EMBER_HOST_DEVICE void scan_line(const ScanArgs<T>& a, int64_t line) {
  const Op op;
  const int64_t start = a.lines.start(line);
  auto acc = op.identity();
  for (int64_t k = 0; k < a.lines.n; ++k) {
    const int64_t at = start + k * a.lines.inner;
    acc = op.reduce(acc, static_cast<kernels::opmath_t<T>>(a.input[at]), k);
    a.output[at] = kernels::convert<T>(acc);
  }
}

template <class Acc>
struct ScanValues {
  Acc v[kScanValues];
};

// The elements [begin, end) of block `block`'s line that it works on.
struct ScanTile {
  int64_t line, index, begin, end;
};
template <class T>
EMBER_HOST_DEVICE ScanTile scan_tile(const ScanArgs<T>& a, int64_t block) {
  const int64_t index = block % a.tiles, begin = index * a.tile_length;
  const int64_t end = begin + a.tile_length < a.lines.n ? begin + a.tile_length : a.lines.n;
  return {block / a.tiles, index, begin, end};
}

// Block `block` folds its tile into a.totals[block] (the first of the three launches of a split
// scan); uses a.threads / kWarpSize Acc of shared memory.
template <class Op, class B, class T>
EMBER_HOST_DEVICE void scan_tile_total(B& b, const ScanArgs<T>& a, int64_t block) {
  using Acc = kernels::scan_acc_t<T>;
  const Op op;
  const ScanTile tile = scan_tile(a, block);
  const int64_t start = a.lines.start(tile.line), step = a.lines.inner;
  auto fold = b.template regs<Acc>();
  b.each([&](int t) {
    Acc run = op.identity();
    for (int64_t i = tile.begin + t; i < tile.end; i += a.threads)
      run = op.reduce(run, static_cast<kernels::opmath_t<T>>(a.input[start + i * step]), i);
    fold[t] = run;
  });
  combine_lanes(b, BlockShape{a.threads, 1, true}, op, fold);
  b.each([&](int t) {
    if (t == 0) a.totals[block] = fold[t];
  });
}

// Block `block` scans its tile (a.block_scan), starting from the fold of the tiles before it;
// uses a.threads / kWarpSize Acc of shared memory. Each thread writes only the elements it read,
// so the scan may run in place.
template <class Op, class B, class T>
EMBER_HOST_DEVICE void scan_block(B& b, const ScanArgs<T>& a, int64_t block) {
  using Acc = kernels::scan_acc_t<T>;
  const Op op;
  const ScanTile tile = scan_tile(a, block);
  const int64_t start = a.lines.start(tile.line), end = tile.end, step = a.lines.inner;
  const int64_t chunk = int64_t{a.threads} * kScanValues;
  const int warps = a.threads / kWarpSize;
  auto s = b.template shared<Acc>();
  auto values = b.template regs<ScanValues<Acc>>();  // inclusive folds within the thread
  auto before = b.template regs<Acc>();              // then: the fold before the thread in its warp
  auto carry = b.template regs<Acc>();               // the chunks before, the same in every thread
  const Acc before_tile = tile.index == 0 ? op.identity() : a.totals[block - 1];
  b.each([&](int t) { carry[t] = before_tile; });
  for (int64_t first = tile.begin; first < end; first += chunk) {
    b.each([&](int t) {
      Acc run = op.identity();
      for (int k = 0; k < kScanValues; ++k) {
        const int64_t i = first + int64_t{t} * kScanValues + k;
        if (i < end)
          run = op.reduce(run, static_cast<kernels::opmath_t<T>>(a.input[start + i * step]), i);
        values[t].v[k] = run;
      }
      before[t] = run;
    });
    b.warp_exclusive_scan(before, op);
    b.each([&](int t) {
      if (t % kWarpSize == kWarpSize - 1)
        s[t / kWarpSize] = op.combine(before[t], values[t].v[kScanValues - 1]);
    });
    b.sync();
    b.each([&](int t) {
      Acc prefix = carry[t], total = carry[t];
      for (int w = 0; w < warps; ++w) {
        const Acc warp_total = s[w];
        if (w < t / kWarpSize) prefix = op.combine(prefix, warp_total);
        total = op.combine(total, warp_total);
      }
      prefix = op.combine(prefix, before[t]);
      for (int k = 0; k < kScanValues; ++k) {
        const int64_t i = first + int64_t{t} * kScanValues + k;
        if (i < end)
          a.output[start + i * step] = kernels::convert<T>(op.combine(prefix, values[t].v[k]));
      }
      carry[t] = total;
    });
    b.sync();
  }
}

}  // namespace ember::cuda
