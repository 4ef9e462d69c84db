// grid_size, after_launch and CUDA_LAUNCH_BLOCKING (see launch.h).
#include "cuda/launch.h"

#include <climits>
#include <cstdlib>
#include <string_view>

#include "core/check.h"
#include "cuda/cuda_check.h"
#include "cuda/kernel_error.h"

namespace ember::cuda {

// Read once, like the CUDA driver, which also honours it (its launches then return only when
// the kernel has finished, but an error still surfaces at the next runtime call).
bool detail::launch_blocking() noexcept {
  static const bool blocking = [] {
    const char* value = std::getenv("CUDA_LAUNCH_BLOCKING");
    return value != nullptr && std::string_view(value) == "1";
  }();
  return blocking;
}

unsigned impl::grid_size(int64_t blocks, const char* op) {
  EMBER_CHECK(blocks <= INT32_MAX, "[", op, "] needs ", blocks,
              " thread blocks, more than one CUDA launch takes");
  return static_cast<unsigned>(blocks);
}

void impl::after_launch(const char* op, cudaStream_t stream) {
  EMBER_CUDA_CHECK(cudaGetLastError(), "launching [", op, "]");
  if (detail::launch_blocking()) {
    EMBER_CUDA_CHECK(cudaStreamSynchronize(stream), "running [", op, "] (CUDA_LAUNCH_BLOCKING=1)");
    impl::raise_kernel_errors();
  }
}

}  // namespace ember::cuda
