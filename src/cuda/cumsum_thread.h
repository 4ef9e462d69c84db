// The CUDA cumsum minus the launch: the plan chosen on the host, the one-thread-per-line scan and
// the block program of a block scan (Note [Block programs]). Compiled by g++ and nvcc;
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

// Note [CUDA cumsum plan]
// With enough lines to fill the GPU, or short ones, each thread scans one line in the CPU's
// order (so the results are the CPU's exactly); for inner > 1 neighbouring threads then read
// neighbouring memory. Otherwise (few long lines, or contiguous rows longer than a warp's
// worth) one block scans each line, chunk by chunk: every thread folds kCumsumValues neighbouring
// elements, a warp scan and a scan over the warps' totals (through shared memory) give each
// thread the sum before its elements, and the chunk's total carries into the next chunk.
inline constexpr int kCumsumValues = 4;
inline constexpr int64_t kCumsumShortLine = 2 * kWarpSize;
inline constexpr int kCumsumLineThreads = 128;  // block size of the one-line-per-thread launch

template <class T>
struct CumsumArgs {
  const T* input;
  T* output;
  Lines lines;
  bool block_scan;
  int threads;  // per block: a block scan's width, or kCumsumLineThreads
};

template <class T>
CumsumArgs<T> make_cumsum_args(const T* input, T* output, const Lines& lines, int sm_count) {
  const bool few_lines = lines.count() < int64_t{kMaxBlockThreads} * std::max(sm_count, 1);
  const bool block_scan = lines.n > kCumsumShortLine && (lines.inner == 1 || few_lines);
  const int threads =
      block_scan ? std::max(pow2_at_least((lines.n + kCumsumValues - 1) / kCumsumValues), kWarpSize)
                 : kCumsumLineThreads;
  return {input, output, lines, block_scan, threads};
}

// The dynamic shared memory of a block scan: one total per warp.
template <class T>
size_t shared_bytes(const CumsumArgs<T>& a) {
  return a.block_scan
             ? static_cast<size_t>(a.threads / kWarpSize) * sizeof(kernels::cumsum_acc_t<T>)
             : 0;
}

// One thread's line, in the CPU kernel's order.
template <class T>
EMBER_HOST_DEVICE void cumsum_line(const CumsumArgs<T>& a, int64_t line) {
  const kernels::SumOp<kernels::cumsum_acc_t<T>> add;
  const int64_t start = a.lines.start(line);
  auto acc = add.identity();
  for (int64_t k = 0; k < a.lines.n; ++k) {
    const int64_t at = start + k * a.lines.inner;
    acc = add.reduce(acc, static_cast<kernels::opmath_t<T>>(a.input[at]), k);
    a.output[at] = kernels::convert<T>(acc);
  }
}

template <class Acc>
struct ScanValues {
  Acc v[kCumsumValues];
};

// Block `line` scans that line (a.block_scan); uses a.threads / kWarpSize Acc of shared memory.
template <class B, class T>
EMBER_HOST_DEVICE void cumsum_block(B& b, const CumsumArgs<T>& a, int64_t line) {
  using Acc = kernels::cumsum_acc_t<T>;
  const kernels::SumOp<Acc> add;
  const int64_t start = a.lines.start(line), n = a.lines.n, step = a.lines.inner;
  const int64_t chunk = int64_t{a.threads} * kCumsumValues;
  const int warps = a.threads / kWarpSize;
  auto s = b.template shared<Acc>();
  auto values = b.template regs<ScanValues<Acc>>();  // inclusive sums within the thread
  auto before = b.template regs<Acc>();              // then: the sum before the thread in its warp
  auto carry = b.template regs<Acc>();               // the chunks before, the same in every thread
  b.each([&](int t) { carry[t] = add.identity(); });
  for (int64_t first = 0; first < n; first += chunk) {
    b.each([&](int t) {
      Acc run = add.identity();
      for (int k = 0; k < kCumsumValues; ++k) {
        const int64_t i = first + int64_t{t} * kCumsumValues + k;
        if (i < n)
          run = add.reduce(run, static_cast<kernels::opmath_t<T>>(a.input[start + i * step]), i);
        values[t].v[k] = run;
      }
      before[t] = run;
    });
    b.warp_exclusive_scan(before, add);
    b.each([&](int t) {
      if (t % kWarpSize == kWarpSize - 1)
        s[t / kWarpSize] = add.combine(before[t], values[t].v[kCumsumValues - 1]);
    });
    b.sync();
    b.each([&](int t) {
      Acc prefix = carry[t], total = carry[t];
      for (int w = 0; w < warps; ++w) {
        const Acc warp_total = s[w];
        if (w < t / kWarpSize) prefix = add.combine(prefix, warp_total);
        total = add.combine(total, warp_total);
      }
      prefix = add.combine(prefix, before[t]);
      for (int k = 0; k < kCumsumValues; ++k) {
        const int64_t i = first + int64_t{t} * kCumsumValues + k;
        if (i < n)
          a.output[start + i * step] = kernels::convert<T>(add.combine(prefix, values[t].v[k]));
      }
      carry[t] = total;
    });
    b.sync();
  }
}

}  // namespace ember::cuda
