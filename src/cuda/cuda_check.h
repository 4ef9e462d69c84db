// EMBER_CUDA_CHECK: turns a failed CUDA runtime call into ember::CudaError. Private to src/cuda;
// no public header includes CUDA.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/check.h"

namespace ember::cuda::detail {

// CUDA_LAUNCH_BLOCKING=1, read once (launch.cpp).
bool launch_blocking() noexcept;

// "CUDA error: <cudaGetErrorString> (<cudaGetErrorName>) in <expr> at <file>:<line>[; context]",
// plus PyTorch's hint about asynchronous errors unless CUDA_LAUNCH_BLOCKING=1 is already set.
// Clears the runtime's last-error slot so a non-sticky error does not resurface in a later check.
template <class... Context>
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line,
                                   const Context&... context) {
  (void)cudaGetLastError();
  std::string msg = ::ember::str("CUDA error: ", cudaGetErrorString(err), " (",
                                 cudaGetErrorName(err), ") in ", expr, " at ", file, ":", line);
  if constexpr (sizeof...(Context) > 0) msg += ::ember::str("; ", context...);
  if (!launch_blocking())
    msg +=
        ". CUDA kernel errors might be asynchronously reported at some other API call; for "
        "debugging consider passing CUDA_LAUNCH_BLOCKING=1";
  throw ::ember::CudaError(msg);
}

// What cudaStreamQuery and cudaEventQuery answer: true when the work is done, false for
// cudaErrorNotReady (an answer, not an error, so it is cleared); anything else throws.
template <class... Context>
bool query_result(cudaError_t err, const char* expr, const char* file, int line,
                  const Context&... context) {
  if (err == cudaSuccess) return true;
  if (err != cudaErrorNotReady) throw_cuda_error(err, expr, file, line, context...);
  (void)cudaGetLastError();
  return false;
}

}  // namespace ember::cuda::detail

// EMBER_CUDA_CHECK(cudaMalloc(&p, n)) or EMBER_CUDA_CHECK(call, "context ", parts...).
#define EMBER_CUDA_CHECK(expr, ...)                                                 \
  do {                                                                              \
    const cudaError_t ember_cuda_err_ = (expr);                                     \
    if (ember_cuda_err_ != cudaSuccess) [[unlikely]]                                \
      ::ember::cuda::detail::throw_cuda_error(ember_cuda_err_, #expr, __FILE__,     \
                                              __LINE__ __VA_OPT__(, ) __VA_ARGS__); \
  } while (0)

// bool done = EMBER_CUDA_QUERY(cudaEventQuery(e), "context ", parts...).
#define EMBER_CUDA_QUERY(expr, ...) \
  ::ember::cuda::detail::query_result((expr), #expr, __FILE__, __LINE__ __VA_OPT__(, ) __VA_ARGS__)
