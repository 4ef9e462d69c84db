// parallel_for: splits [0, n) over ember's CPU threads (OpenMP) when the work is large enough
// to pay for waking them; small ops stay on the calling thread, and so does everything in a
// build without OpenMP (Note [Optional OpenMP] in cmake/EmberDependencies.cmake).
#pragma once

#include <cstdint>

namespace ember::cpu {

// Elements below which one thread does the whole job (about 50 microseconds of work for
// simple elementwise ops; PyTorch uses 32768 as well).
inline constexpr int64_t kGrainSize = 32768;

int num_threads();  // ember::get_num_threads(): 1 without OpenMP

// Note [One parallel region]
// The OpenMP region is compiled once, in threading.cpp, and reaches each kernel's loop through a
// function pointer, as PyTorch's invoke_parallel does: a region in this template would be
// outlined again for every kernel and dtype that calls it, a third of the kernel files' compile
// time, for a call per thread that costs nothing next to a grain of work.
using ChunkFn = void (*)(const void* body, int64_t begin, int64_t end);
// How many threads share n elements of `grain` each at least: 1 inside a parallel region too.
int threads_for(int64_t n, int64_t grain);
// Runs chunk(body, begin, end) over [0, n) in `threads` equal shares, one per thread.
void run_parallel(int64_t n, int threads, ChunkFn chunk, const void* body);

template <class F>
void parallel_for(int64_t n, int64_t grain, const F& f) {
  if (const int threads = threads_for(n, grain); threads > 1) {
    run_parallel(
        n, threads,
        [](const void* body, int64_t begin, int64_t end) {
          (*static_cast<const F*>(body))(begin, end);
        },
        &f);
    return;
  }
  if (n > 0) f(int64_t{0}, n);
}

}  // namespace ember::cpu
