// The CUDA random kernel minus the launch: what one thread draws. Compiled by g++ and nvcc
// (Note [Emulated GPU loop]), so tests/cuda/random_emulated_test.cpp checks on the host that the
// GPU's numbers are the CPU's (Note [CPU and CUDA random streams] in kernels/philox.h).
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/functors.h"
#include "kernels/philox.h"

namespace ember::cuda {

inline constexpr int kRandomThreads = 256;

struct RandomArgs {
  void* data;  // contiguous, numel elements
  int64_t numel;
  kernels::RandomKind kind;
  double a, b;
  uint64_t seed, offset;
};

// One Philox counter per thread: it gives two elements' bits for uniform and integer draws
// (random_bits: element i uses counter offset + i / 2) and one element for normal draws.
inline int64_t random_threads(const RandomArgs& args) {
  return args.kind == kernels::RandomKind::Normal ? args.numel : (args.numel + 1) / 2;
}

// The work of thread `thread` (0 <= thread < random_threads(args)).
template <class T>
EMBER_HOST_DEVICE void random_thread(const RandomArgs& args, int64_t thread) {
  using M = kernels::opmath_t<T>;
  T* out = static_cast<T*>(args.data);
  const auto counter = static_cast<uint64_t>(thread);
  if (args.kind == kernels::RandomKind::Normal) {
    const double v = kernels::normal_value(args.a, args.b, args.seed, args.offset, counter);
    out[thread] = kernels::convert<T>(kernels::convert<M>(v));
    return;
  }
  const kernels::Philox4x32 r(args.seed, args.offset + counter);
  for (int half = 0; half < 2; ++half) {
    const int64_t i = 2 * thread + half;
    if (i >= args.numel) break;
    const uint64_t bits = r.u64(half);
    out[i] =
        args.kind == kernels::RandomKind::Integer
            ? kernels::convert<T>(kernels::convert<M>(kernels::integer_value(args.a, args.b, bits)))
            : kernels::convert<T>(
                  kernels::convert<M>(kernels::uniform_value<T>(args.a, args.b, bits)));
  }
}

}  // namespace ember::cuda
