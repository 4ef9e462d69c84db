// Page-locked host memory for CUDA: the caching host allocator's policy
// (core/host_caching_allocator.h) over cudaHostAlloc, cudaFreeHost and CUDA events, and
// ember::cuda::host_memory_stats.
#include "core/host_caching_allocator.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "ember/cuda.h"

namespace ember {
namespace {

class CudaHostSource final : public detail::HostMemorySource {
 public:
  // The calls need a context, and any will do: portable memory is page-locked for every device,
  // and events are queried from any context. A device that has one already is used
  // (query_event does the same), so that a program working on cuda:1 alone makes no context on
  // cuda:0.
  void* raw_alloc(size_t nbytes) override {
    (void)cuda::impl::index_or_current(-1);  // throws CudaError without a usable GPU
    cuda::impl::RuntimeDeviceScope scope(cuda::impl::device_with_context());
    void* ptr = nullptr;
    const cudaError_t err = cudaHostAlloc(&ptr, nbytes, cudaHostAllocPortable);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // not sticky: the allocator releases its cache and retries
      return nullptr;
    }
    EMBER_CUDA_CHECK(err, "while page-locking ", nbytes, " bytes of host memory");
    return ptr;
  }

  // Errors are dropped: at process exit the runtime may already be gone.
  void raw_free(void* ptr) noexcept override {
    (void)cudaFreeHost(ptr);
    (void)cudaGetLastError();
  }

  void* record_event(const Stream& stream) noexcept override {
    return cuda::impl::record_reuse_event(stream.device().index(), stream.id());
  }

  bool query_event(void* event) override { return cuda::impl::query_event(event); }

  void release_event(void* event) noexcept override { cuda::impl::release_reuse_event(event); }
};

}  // namespace

// Leaked on purpose, as the device allocators: pinned storages may be freed during exit.
detail::HostCachingAllocator& cuda::impl::host_allocator() {
  static auto* allocator = new ::ember::detail::HostCachingAllocator(*new CudaHostSource());
  return *allocator;
}

bool cuda::impl::is_page_locked(const void* ptr) noexcept {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

std::map<std::string, int64_t> cuda::host_memory_stats() {
  if (!is_available()) return {};
  return ::ember::detail::flatten_host_stats(impl::host_allocator().stats());
}

}  // namespace ember
