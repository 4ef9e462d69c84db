// parallel_for: splits [0, n) over ember's CPU threads (OpenMP) when the work is large enough
// to pay for waking them; small ops stay on the calling thread, and so does everything in a
// build without OpenMP (Note [Optional OpenMP] in cmake/EmberDependencies.cmake).
#pragma once

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cstdint>

namespace ember::cpu {

// Elements below which one thread does the whole job (about 50 microseconds of work for
// simple elementwise ops; PyTorch uses 32768 as well).
inline constexpr int64_t kGrainSize = 32768;

int num_threads();  // ember::get_num_threads(): 1 without OpenMP

template <class F>
void parallel_for(int64_t n, [[maybe_unused]] int64_t grain, const F& f) {
#ifdef _OPENMP
  int nt = static_cast<int>(std::min<int64_t>(num_threads(), n / std::max<int64_t>(grain, 1)));
  if (nt > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(nt)
    {
      int t = omp_get_thread_num(), count = omp_get_num_threads();
      int64_t chunk = (n + count - 1) / count;
      int64_t begin = t * chunk, end = std::min(n, begin + chunk);
      if (begin < end) f(begin, end);
    }
    return;
  }
#endif
  if (n > 0) f(int64_t{0}, n);
}

}  // namespace ember::cpu
