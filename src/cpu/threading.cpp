// ember::set_num_threads / get_num_threads: the thread count of CPU kernels.
#include "ember/threading.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <atomic>

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
}  // namespace cpu

}  // namespace ember
