// ember::set_num_threads / get_num_threads: the thread count of CPU kernels, and the one OpenMP
// region every parallel_for runs in (Note [One parallel region] in cpu/parallel.h).
#include "ember/threading.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <atomic>
#include <exception>

#include "core/check.h"
#include "cpu/parallel.h"

namespace ember {
namespace {

#ifdef _OPENMP
constexpr bool kThreaded = true;
int default_threads() { return omp_get_max_threads(); }  // OMP_NUM_THREADS, else the cores
#else
// Note [Optional OpenMP]: parallel_for runs everything on the calling thread, so one thread is
// what the kernels use, whatever set_num_threads asked for.
constexpr bool kThreaded = false;
int default_threads() { return 1; }
#endif

std::atomic<int>& thread_count() {
  static std::atomic<int> n{default_threads()};
  return n;
}

}  // namespace

void set_num_threads(int n) {
  EMBER_CHECK_T(ValueError, n >= 1, "[set_num_threads] expected a positive number of threads, got ",
                n);
  if (kThreaded) thread_count() = n;
}

int get_num_threads() { return thread_count(); }

namespace cpu {

int num_threads() { return thread_count().load(std::memory_order_relaxed); }

int threads_for(int64_t n, int64_t grain) {
#ifdef _OPENMP
  if (omp_in_parallel()) return 1;
  return static_cast<int>(std::min<int64_t>(num_threads(), n / std::max<int64_t>(grain, 1)));
#else
  (void)n;
  (void)grain;
  return 1;
#endif
}

void run_parallel(int64_t n, [[maybe_unused]] int threads, ChunkFn chunk, const void* body) {
#ifdef _OPENMP
  // An exception may not leave an OpenMP region (it would terminate the process): the first one
  // a chunk throws is kept and thrown again after the region, as ATen's parallel_for does.
  std::exception_ptr error;
  std::atomic_flag failed = ATOMIC_FLAG_INIT;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), count = omp_get_num_threads();
    const int64_t share = (n + count - 1) / count;
    const int64_t begin = t * share, end = std::min(n, begin + share);
    if (begin < end) {
      try {
        chunk(body, begin, end);
      } catch (...) {
        if (!failed.test_and_set()) error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
#else
  chunk(body, 0, n);
#endif
}

}  // namespace cpu

}  // namespace ember
