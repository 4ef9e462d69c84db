// CUDA memory: each device's caching allocator (the policy of core/caching_allocator.h over
// cudaMalloc, cudaFree and CUDA events) and ember::cuda's memory statistics.
//
// Note [Disabling the CUDA cache]
// PYTORCH_NO_CUDA_MEMORY_CACHING=1 (or EMBER_NO_CUDA_MEMORY_CACHING=1), read once when the
// allocators are made, turns the cache off as in PyTorch: every tensor gets its own cudaMalloc of
// its exact size and is cudaFree'd when it dies, so compute-sanitizer sees each one's bounds. The
// statistics still count (PyTorch reports zeros then).
#include <cstdlib>
#include <deque>
#include <string_view>

#include "core/caching_allocator.h"
#include "core/check.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "ember/cuda.h"

namespace ember {
namespace {

using cuda::impl::RuntimeDeviceScope;
using detail::CachingAllocator;
using detail::DeviceStats;
using detail::StreamId;

using cuda::impl::native_event;

class CudaMemorySource final : public detail::MemorySource {
 public:
  explicit CudaMemorySource(int index) : index_(index) {}

  void* raw_alloc(size_t nbytes) override {
    RuntimeDeviceScope scope(index_);
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, nbytes);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // not sticky: the allocator frees its cache and retries
      return nullptr;
    }
    EMBER_CUDA_CHECK(err, "while allocating ", nbytes, " bytes on cuda:", index_);
    return ptr;
  }

  // Errors are dropped: at process exit the runtime may already be gone.
  void raw_free(void* ptr) noexcept override {
    RuntimeDeviceScope scope(index_, std::nothrow);
    (void)cudaFree(ptr);
  }

  void* record_event(StreamId stream) noexcept override {
    return cuda::impl::record_reuse_event(index_, stream);
  }

  // On the allocator's own device: the allocator polls its events before an allocation sets
  // the device, and a thread whose runtime device has no context would otherwise make one there.
  bool query_event(void* event) override {
    RuntimeDeviceScope scope(index_, std::nothrow);
    return EMBER_CUDA_QUERY(cudaEventQuery(native_event(event)),
                            "while polling a stream of cuda:", index_);
  }

  void synchronize_event(void* event) override {
    RuntimeDeviceScope scope(index_, std::nothrow);
    EMBER_CUDA_CHECK(cudaEventSynchronize(native_event(event)), "while waiting for cuda:", index_);
  }

  void release_event(void* event) noexcept override { cuda::impl::release_reuse_event(event); }

  Capacity mem_get_info() override {
    const cuda::MemInfo info = cuda::mem_get_info(index_);
    return {info.free, info.total};
  }

  std::string api_name() const override { return "CUDA"; }
  std::string device_name() const override { return ember::str("GPU ", index_); }

 private:
  int index_;
};

bool caching_disabled() {
  for (const char* name : {"PYTORCH_NO_CUDA_MEMORY_CACHING", "EMBER_NO_CUDA_MEMORY_CACHING"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && std::string_view(value) == "1") return true;
  }
  return false;
}

// What storages allocate with: blocks on this thread's current stream of the device, whose work
// on them is then ordered with their reuse (Note [Stream-ordered reuse]).
class CurrentStreamAllocator final : public detail::Allocator {
 public:
  CurrentStreamAllocator(CachingAllocator& allocator, int index)
      : allocator_(allocator), index_(index) {}
  void* allocate(size_t nbytes) override {
    return allocator_.allocate(nbytes, cuda::impl::current_stream_id(index_));
  }
  void deallocate(void* ptr, size_t nbytes) noexcept override {
    allocator_.deallocate(ptr, nbytes);
  }

 private:
  CachingAllocator& allocator_;
  int index_;
};

struct DeviceMemory {
  explicit DeviceMemory(int index)
      : source(index),
        allocator(source, !caching_disabled()),
        on_current_stream(allocator, index) {}
  CudaMemorySource source;
  CachingAllocator allocator;
  CurrentStreamAllocator on_current_stream;
};

// One per visible device. Building them touches no device; leaked on purpose, since storages
// may be freed during static destruction.
std::deque<DeviceMemory>& devices() {
  static auto* all = [] {
    auto* d = new std::deque<DeviceMemory>();
    for (int i = 0; i < cuda::device_count(); ++i) d->emplace_back(i);
    return d;
  }();
  return *all;
}

CachingAllocator& allocator_of(int index) {
  return devices()[static_cast<size_t>(index)].allocator;
}

// `device`, or the current one for -1; throws without a usable GPU or for a bad ordinal.
int checked_index(int device) {
  const int index = cuda::impl::index_or_current(device);
  cuda::impl::check_index(index);
  return index;
}

CachingAllocator* maybe_allocator(int device) {
  return cuda::is_available() ? &allocator_of(checked_index(device)) : nullptr;
}

// Zeros without a usable GPU, as PyTorch's statistics read before CUDA is initialised.
DeviceStats stats_of(int device) {
  CachingAllocator* allocator = maybe_allocator(device);
  return allocator != nullptr ? allocator->stats() : DeviceStats{};
}

}  // namespace

detail::Allocator& cuda::impl::device_allocator(int index) {
  return devices()[static_cast<size_t>(index)].on_current_stream;
}

void cuda::impl::record_stream(int index, void* data, uint64_t stream_id) {
  allocator_of(index).record_stream(data, stream_id);
}

namespace cuda {

int64_t memory_allocated(int device) { return stats_of(device).allocated_bytes.all.current; }
int64_t max_memory_allocated(int device) { return stats_of(device).allocated_bytes.all.peak; }
int64_t memory_reserved(int device) { return stats_of(device).reserved_bytes.all.current; }
int64_t max_memory_reserved(int device) { return stats_of(device).reserved_bytes.all.peak; }

void reset_peak_memory_stats(int device) {
  if (CachingAllocator* allocator = maybe_allocator(device)) allocator->reset_peak_stats();
}

void reset_accumulated_memory_stats(int device) {
  if (CachingAllocator* allocator = maybe_allocator(device)) allocator->reset_accumulated_stats();
}

// Every device, as PyTorch does; a device never used has nothing to release and is not touched.
void empty_cache() {
  if (!is_available()) return;
  for (DeviceMemory& d : devices()) d.allocator.empty_cache();
}

std::map<std::string, int64_t> memory_stats(int device) {
  CachingAllocator* allocator = maybe_allocator(device);
  return allocator != nullptr ? ::ember::detail::flatten_stats(allocator->stats())
                              : std::map<std::string, int64_t>{};
}

std::string memory_summary(int device, bool abbreviated) {
  const int index = checked_index(device);  // a summary names its device: none without a GPU
  return ::ember::detail::format_memory_summary(
      ::ember::detail::flatten_stats(allocator_of(index).stats()), index, abbreviated);
}

}  // namespace cuda
}  // namespace ember
