// cuBLAS for the files of src/cuda: this thread's handle of a device, bound to the device's
// current stream, and EMBER_CUBLAS_CHECK, which turns a failed cuBLAS call into ember::CudaError.
#pragma once

#include "cuda/cublas_api.h"

namespace ember::cuda::impl {

// This thread's cuBLAS handle of device `index`, bound to the device's current stream with a
// workspace of its own on that stream; the caller holds a RuntimeDeviceScope of `index`. `op`
// names the op in errors. The first call loads cuBLAS (cublas_api.h).
cublasHandle_t cublas_handle(int index, const char* op);

// "[op] cuBLAS error: <status name> (<status string>) in <expr> at <file>:<line>".
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* op, const char* expr,
                                     const char* file, int line);

}  // namespace ember::cuda::impl

#define EMBER_CUBLAS_CHECK(expr, op)                                                     \
  do {                                                                                   \
    const cublasStatus_t ember_cublas_status_ = (expr);                                  \
    if (ember_cublas_status_ != CUBLAS_STATUS_SUCCESS) [[unlikely]]                      \
      ::ember::cuda::impl::throw_cublas_error(ember_cublas_status_, op, #expr, __FILE__, \
                                              __LINE__);                                 \
  } while (0)
