// CUDA events for ember::Event (which checks devices, timing and recording first) and for the
// caching allocators: created on their device, recorded and waited for on a stream's device,
// queried and timed from anywhere, and the plain ones pooled.
//
// Note [CUDA event pool]
// Events without timing, blocking or sharing between processes are the ones ember records most:
// one after every non-blocking copy to the host (Note [Safe non-blocking copies to the host]) and
// one for every block freed while other streams used it (Note [Stream-ordered reuse]). As PyTorch's
// caching allocator does with its own, each device keeps such events once made: one given back
// goes on its device's free list, and the next request takes it instead of creating one. An event
// may be recorded again at once: a wait already queued on it waits for the record it saw. The pool
// knows its events by handle, so Event's destructor, which has only the handle, returns exactly
// those. They are never destroyed: at exit the runtime may already be gone.
#include <array>
#include <mutex>
#include <new>
#include <unordered_map>

#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "cuda/kernel_error.h"

namespace ember::cuda::impl {
namespace {

class EventPool {
 public:
  // A plain event of device `index`, the runtime's current device: one given back, else a new one.
  cudaError_t take(int index, cudaEvent_t& event) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Entry* entry = free_[static_cast<size_t>(index)]) {
      free_[static_cast<size_t>(index)] = entry->next_free;
      event = entry->event;
      return cudaSuccess;
    }
    const cudaError_t err = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
    if (err != cudaSuccess) return err;
    try {
      entries_.emplace(event, Entry{event, index, nullptr});
    } catch (const std::bad_alloc&) {
      (void)cudaEventDestroy(event);
      return cudaErrorMemoryAllocation;
    }
    return cudaSuccess;
  }

  // Puts one of the pool's events back on its device's free list; false for any other event.
  bool give_back(cudaEvent_t event) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = entries_.find(event);
    if (found == entries_.end()) return false;
    Entry& entry = found->second;
    entry.next_free = free_[static_cast<size_t>(entry.device)];
    free_[static_cast<size_t>(entry.device)] = &entry;
    return true;
  }

 private:
  struct Entry {
    cudaEvent_t event;
    int device;
    Entry* next_free;
  };
  std::mutex mutex_;
  std::unordered_map<cudaEvent_t, Entry> entries_;  // every event made; nodes never move
  std::array<Entry*, kMaxDevices> free_{};
};

EventPool& pool() {
  static auto* events = new EventPool();  // leaked with its events
  return *events;
}

bool is_plain(::ember::detail::EventFlags flags) {
  return !flags.enable_timing && !flags.blocking && !flags.interprocess;
}

}  // namespace

void* create_event(int index, ::ember::detail::EventFlags flags) {
  RuntimeDeviceScope scope(index);
  cudaEvent_t event = nullptr;
  if (is_plain(flags)) {
    EMBER_CUDA_CHECK(pool().take(index, event), "while creating an event on cuda:", index);
    return event;
  }
  const unsigned int cuda_flags =
      (flags.enable_timing ? cudaEventDefault : cudaEventDisableTiming) |
      (flags.blocking ? cudaEventBlockingSync : 0u) |
      (flags.interprocess ? cudaEventInterprocess : 0u);
  EMBER_CUDA_CHECK(cudaEventCreateWithFlags(&event, cuda_flags),
                   "while creating an event on cuda:", index);
  return event;
}

// On its own device, so that no other device gets a context; errors are dropped (destructor).
void destroy_event(void* event, int index) noexcept {
  if (pool().give_back(native_event(event))) return;
  RuntimeDeviceScope scope(index, std::nothrow);
  (void)cudaEventDestroy(native_event(event));
}

void* record_reuse_event(int index, uint64_t stream_id) noexcept {
  RuntimeDeviceScope scope(index, std::nothrow);
  cudaEvent_t event = nullptr;
  if (pool().take(index, event) == cudaSuccess) {
    if (cudaEventRecord(event, native_stream(stream_id)) == cudaSuccess) return event;
    (void)pool().give_back(event);
  }
  // Without an event, wait for the stream: the memory can then be reused at once.
  (void)cudaGetLastError();
  (void)cudaStreamSynchronize(native_stream(stream_id));
  return nullptr;
}

void release_reuse_event(void* event) noexcept { (void)pool().give_back(native_event(event)); }

void record_event(void* event, const Stream& stream) {
  RuntimeDeviceScope scope(stream.device().index());
  EMBER_CUDA_CHECK(cudaEventRecord(native_event(event), native_stream(stream)),
                   "while recording an event on ", stream);
}

void block_event(void* event, const Stream& stream) {
  RuntimeDeviceScope scope(stream.device().index());
  EMBER_CUDA_CHECK(cudaStreamWaitEvent(native_stream(stream), native_event(event), 0),
                   "while making ", stream, " wait for an event");
}

// Under a device that has a context: on a thread that never used the event's device the runtime
// would otherwise make a context on its own current device.
bool query_event(void* event) {
  RuntimeDeviceScope scope(device_with_context(), std::nothrow);
  return EMBER_CUDA_QUERY(cudaEventQuery(native_event(event)), "while querying an event");
}

void synchronize_event(void* event) {
  {
    RuntimeDeviceScope scope(device_with_context(), std::nothrow);
    EMBER_CUDA_CHECK(cudaEventSynchronize(native_event(event)), "while waiting for an event");
  }
  raise_kernel_errors();
}

double elapsed_ms(void* start, void* end, int index) {
  RuntimeDeviceScope scope(index);  // the events' device, which has a context already
  float ms = 0;
  EMBER_CUDA_CHECK(cudaEventElapsedTime(&ms, native_event(start), native_event(end)),
                   "while timing events of cuda:", index);
  return ms;
}

}  // namespace ember::cuda::impl
