// ember::set_num_threads / get_num_threads: the thread count of CPU kernels.
#include "ember/threading.h"

#include <omp.h>

#include <atomic>

#include "core/check.h"
#include "cpu/parallel.h"

namespace ember {
namespace {

std::atomic<int>& thread_count() {
  static std::atomic<int> n{omp_get_max_threads()};
  return n;
}

}  // namespace

void set_num_threads(int n) {
  EMBER_CHECK_T(ValueError, n >= 1, "[set_num_threads] expected a positive number of threads, got ",
                n);
  thread_count() = n;
}

int get_num_threads() { return thread_count(); }

namespace cpu {
int num_threads() { return thread_count().load(std::memory_order_relaxed); }
}  // namespace cpu

}  // namespace ember
