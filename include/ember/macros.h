// Export and portability macros shared by every public header.
#pragma once

#if defined(_WIN32)
#define EMBER_API
#else
#define EMBER_API __attribute__((visibility("default")))
#endif

// Marks functions that run on both the host and (when compiled by nvcc) the GPU: the element
// math in src/kernels/ is written once with it and used by the CPU and CUDA loops alike.
#if defined(__CUDACC__)
#define EMBER_HOST_DEVICE __host__ __device__
#else
#define EMBER_HOST_DEVICE
#endif
