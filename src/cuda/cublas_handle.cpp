// cuBLAS handles (see cublas_handle.h): one per thread and device, from a pool that outlives
// threads, each with a workspace per stream from the caching allocator.
#include "cuda/cublas_handle.h"

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/check.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "ember/factory.h"
#include "ember/tensor.h"

namespace ember::cuda::impl {
namespace {

// A handle and its workspaces, one per stream it has run on.
struct Handle {
  cublasHandle_t handle = nullptr;
  bool bound = false;
  uint64_t stream = 0;  // the stream it is bound to, when `bound`
  std::unordered_map<uint64_t, Tensor> workspaces;
};

// Note [cuBLAS handle pool]
// A cuBLAS handle must not be used by two threads at once, so each thread has its own per
// device. A thread that ends gives its handles back to the pool and the next thread takes them:
// creating one costs milliseconds and device memory, and data-loader threads come and go. Handles
// are never destroyed: at process exit the CUDA runtime may already be gone (PyTorch leaks them
// too).
class Pool {
 public:
  Handle* take(int index, const char* op) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<Handle*>& free = free_[index];
      if (!free.empty()) {
        Handle* h = free.back();
        free.pop_back();
        return h;
      }
    }
    const CublasApi& cublas = cublas_api(op);
    auto h = std::make_unique<Handle>();
    EMBER_CUBLAS_CHECK(cublas.create(&h->handle), op);
    // Half and bfloat16 products accumulate in float throughout, as the CPU loop does; float32
    // stays IEEE float (no TF32), as PyTorch's default.
    EMBER_CUBLAS_CHECK(
        cublas.set_math_mode(
            h->handle, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH |
                                                 CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
        op);
    return h.release();
  }
  void give_back(int index, Handle* h) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[index].push_back(h);
  }

 private:
  std::mutex mutex_;
  std::vector<Handle*> free_[kMaxDevices];
};

Pool& pool() {
  static Pool* p = new Pool;  // leaked: thread-exit hooks may still give handles back
  return *p;
}

struct ThreadHandles {
  Handle* of_device[kMaxDevices] = {};
  ~ThreadHandles() {
    for (int i = 0; i < kMaxDevices; ++i)
      if (of_device[i] != nullptr) pool().give_back(i, of_device[i]);
  }
};

// cuBLAS's recommended workspace: 32 MiB on Hopper and later, 4 MiB before.
size_t workspace_bytes(int index) {
  int major = 0;
  EMBER_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index));
  return major >= 9 ? size_t{32} << 20 : size_t{4} << 20;
}

}  // namespace

cublasHandle_t cublas_handle(int index, const char* op) {
  thread_local ThreadHandles mine;
  Handle*& h = mine.of_device[index];
  if (h == nullptr) h = pool().take(index, op);
  const uint64_t stream = current_stream_id(index);
  if (!h->bound || h->stream != stream) {
    // cublasSetStream also puts back cuBLAS's default workspace, which is shared by every stream
    // the handle runs on; a workspace of the stream's own (allocated while it is current, so the
    // caching allocator ties it to that stream) keeps work on two streams apart.
    const CublasApi& cublas = cublas_api(op);
    h->bound = false;  // until both calls succeed
    EMBER_CUBLAS_CHECK(cublas.set_stream(h->handle, native_stream(stream)), op);
    Tensor& workspace = h->workspaces[stream];
    if (!workspace.defined())
      workspace = empty({static_cast<int64_t>(workspace_bytes(index))},
                        TensorOptions().dtype(kUInt8).device(Device::cuda(index)));
    EMBER_CUBLAS_CHECK(cublas.set_workspace(h->handle, workspace.data_ptr(), workspace.nbytes()),
                       op);
    h->bound = true;
    h->stream = stream;
  }
  return h->handle;
}

// Only a loaded cuBLAS returns statuses.
void throw_cublas_error(cublasStatus_t status, const char* op, const char* expr, const char* file,
                        int line) {
  const CublasApi& cublas = cublas_api(op);
  ::ember::detail::fail<CudaError>("[", op, "] cuBLAS error: ", cublas.status_name(status), " (",
                                   cublas.status_string(status), ") in ", expr, " at ", file, ":",
                                   line);
}

}  // namespace ember::cuda::impl
