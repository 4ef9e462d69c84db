// Loading cuBLAS on first use (Note [cuBLAS loaded on first use] in cublas_api.h).
#include "cuda/cublas_api.h"

#include <string>

#include "core/check.h"
#include "core/shared_library.h"

namespace ember::cuda::impl {
namespace {

const std::string& library_name() {
  static const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  return name;
}

using ::ember::detail::LoadedApi;
using ::ember::detail::SharedLibrary;

LoadedApi<CublasApi> load() {
  return ::ember::detail::load_api<CublasApi>(
      library_name(), "a cuBLAS older than the headers ember was built with?",
      [](SharedLibrary& library, CublasApi& api) {
        library.find(api.create, "cublasCreate_v2");
        library.find(api.set_math_mode, "cublasSetMathMode");
        library.find(api.set_stream, "cublasSetStream_v2");
        library.find(api.set_workspace, "cublasSetWorkspace_v2");
        library.find(api.status_name, "cublasGetStatusName");
        library.find(api.status_string, "cublasGetStatusString");
        library.find(api.sgemm_strided_batched, "cublasSgemmStridedBatched");
        library.find(api.dgemm_strided_batched, "cublasDgemmStridedBatched");
        library.find(api.gemm_strided_batched_ex, "cublasGemmStridedBatchedEx");
      });
}

}  // namespace

const CublasApi& cublas_api(const char* op) {
  static const auto* loaded = new LoadedApi<CublasApi>(load());  // handles outlive static dtors
  if (!loaded->error.empty()) [[unlikely]]
    ::ember::detail::fail<CudaError>(
        "[", op, "] cuBLAS, which ember loads for matrix products on a GPU, could not be loaded: ",
        loaded->error, ". Install CUDA ", CUBLAS_VER_MAJOR, "'s cuBLAS (", library_name(),
        ", part of the CUDA toolkit) or add its directory to LD_LIBRARY_PATH");
  return loaded->api;
}

}  // namespace ember::cuda::impl
