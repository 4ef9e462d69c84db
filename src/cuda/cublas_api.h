// cuBLAS's entry points that ember calls, loaded from the shared library on first use.
//
// Note [cuBLAS loaded on first use]
// libcublas (with the libcublasLt it needs) is over 700 MiB of code that the loader would map,
// relocate and initialise in every process linked with ember, including those that never use a
// GPU, before main() runs. ember does not link it: the first matrix product on a GPU dlopens the
// libcublas.so.<major> of the toolkit ember was built with (found through libember's RUNPATH, the
// toolkit's directory, or the usual loader path) and looks up the functions below, whose types
// come from cuBLAS's own header; a missing library is a CudaError saying so, raised by that
// product. cuda::is_available() and every other op stay free of it. PyTorch loads NVRTC and the
// CUDA driver API the same way.
#pragma once

#include <cublas_v2.h>

namespace ember::cuda::impl {

struct CublasApi {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasSetWorkspace_v2) set_workspace;
  decltype(&cublasGetStatusName) status_name;
  decltype(&cublasGetStatusString) status_string;
  decltype(&cublasSgemmStridedBatched) sgemm_strided_batched;
  decltype(&cublasDgemmStridedBatched) dgemm_strided_batched;
  // The C entry point; in C++ the header adds an inline overload taking the older compute type.
  cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                            int, int, int, const void*, const void*, cudaDataType,
                                            int, long long, const void*, cudaDataType, int,
                                            long long, const void*, void*, cudaDataType, int,
                                            long long, int, cublasComputeType_t, cublasGemmAlgo_t);
};

// cuBLAS, loaded by the first call; throws CudaError naming `op` when it cannot be loaded.
const CublasApi& cublas_api(const char* op);

}  // namespace ember::cuda::impl
