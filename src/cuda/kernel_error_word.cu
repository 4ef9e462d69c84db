// The device-side word through which index-checking kernels claim their device's kernel-error
// record (Note [Index errors found by GPU kernels]).
#include "cuda/cuda_check.h"
#include "cuda/kernel_error.h"

namespace ember::cuda::impl {
namespace {

// Note [A kernel-error word without a wait]
// The word must read zero before the first checking kernel runs, on whichever stream that is. A
// cudaMalloc'd word needs a memset, and a memset on one stream is not ordered with kernels on the
// others (ember's pool streams do not wait for the legacy stream either), so the host would have
// to wait for it: an implicit host sync on the first gather of every device. A module global is
// zeroed by the driver when it loads this file's module into the device's context, before
// cudaGetSymbolAddress returns, so no stream is involved and nothing waits. The kernels that
// report live in other files and reach the word only through the address in their slot.
__device__ unsigned long long g_claimed = 0;

}  // namespace

unsigned long long* kernel_error_word(int device) {
  void* address = nullptr;
  EMBER_CUDA_CHECK(cudaGetSymbolAddress(&address, g_claimed),
                   "while finding the kernel-error word of cuda:", device);
  return static_cast<unsigned long long*>(address);
}

}  // namespace ember::cuda::impl
