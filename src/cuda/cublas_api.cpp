// Loading cuBLAS on first use (Note [cuBLAS loaded on first use] in cublas_api.h).
#include "cuda/cublas_api.h"

#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "core/check.h"

namespace ember::cuda::impl {
namespace {

// The library, or why it could not be used.
struct LoadedCublas {
  CublasApi api{};
  std::string error;  // empty when every function was found
};

const std::string& library_name() {
  static const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  return name;
}

// Loaded once and never unloaded: handles made from it live until the process ends.
LoadedCublas load() {
  LoadedCublas loaded;
  void* library = dlopen(library_name().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    loaded.error = why != nullptr ? why : "dlopen failed";
    return loaded;
  }
  auto find = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
    if (function == nullptr && loaded.error.empty())
      loaded.error = ::ember::str(library_name(), " has no ", name, " (a cuBLAS older ",
                                  "than the headers ember was built with?)");
  };
  CublasApi& api = loaded.api;
  find(api.create, "cublasCreate_v2");
  find(api.set_math_mode, "cublasSetMathMode");
  find(api.set_stream, "cublasSetStream_v2");
  find(api.set_workspace, "cublasSetWorkspace_v2");
  find(api.status_name, "cublasGetStatusName");
  find(api.status_string, "cublasGetStatusString");
  find(api.sgemm_strided_batched, "cublasSgemmStridedBatched");
  find(api.dgemm_strided_batched, "cublasDgemmStridedBatched");
  find(api.gemm_strided_batched_ex, "cublasGemmStridedBatchedEx");
  return loaded;
}

}  // namespace

const CublasApi& cublas_api(const char* op) {
  static const LoadedCublas* loaded = new LoadedCublas(load());  // leaked with the library
  if (!loaded->error.empty()) [[unlikely]]
    ::ember::detail::fail<CudaError>(
        "[", op, "] cuBLAS, which ember loads for matrix products on a GPU, could not be loaded: ",
        loaded->error, ". Install CUDA ", CUBLAS_VER_MAJOR, "'s cuBLAS (", library_name(),
        ", part of the CUDA toolkit) or add its directory to LD_LIBRARY_PATH");
  return loaded->api;
}

}  // namespace ember::cuda::impl
