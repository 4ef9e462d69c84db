// EMBER_CUDA_CHECK: turns a failed CUDA runtime call into ember::CudaError. Private to src/cuda;
// no public header includes CUDA.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/check.h"

namespace ember::cuda::detail {

// "CUDA error: <cudaGetErrorString> (<cudaGetErrorName>) in <expr> at <file>:<line>[; context]".
// Clears the runtime's last-error slot so a non-sticky error does not resurface in a later check.
template <class... Context>
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line,
                                   const Context&... context) {
  (void)cudaGetLastError();
  std::string msg =
      ::ember::detail::str_cat("CUDA error: ", cudaGetErrorString(err), " (", cudaGetErrorName(err),
                               ") in ", expr, " at ", file, ":", line);
  if constexpr (sizeof...(Context) > 0) msg += ::ember::detail::str_cat("; ", context...);
  throw ::ember::CudaError(msg);
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
