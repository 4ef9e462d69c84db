// CUDA events for ember::Event (which checks devices, timing and recording first): created on
// their device, recorded and waited for on a stream's device, queried and timed from anywhere.
#include <new>

#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "cuda/kernel_error.h"

namespace ember::cuda::impl {

void* create_event(int index, ::ember::detail::EventFlags flags) {
  const unsigned int cuda_flags =
      (flags.enable_timing ? cudaEventDefault : cudaEventDisableTiming) |
      (flags.blocking ? cudaEventBlockingSync : 0u) |
      (flags.interprocess ? cudaEventInterprocess : 0u);
  RuntimeDeviceScope scope(index);
  cudaEvent_t event = nullptr;
  EMBER_CUDA_CHECK(cudaEventCreateWithFlags(&event, cuda_flags),
                   "while creating an event on cuda:", index);
  return event;
}

// On its own device, so that no other device gets a context; errors are dropped (destructor).
void destroy_event(void* event, int index) noexcept {
  RuntimeDeviceScope scope(index, std::nothrow);
  (void)cudaEventDestroy(native_event(event));
}

void* record_reuse_event(int index, uint64_t stream_id) noexcept {
  RuntimeDeviceScope scope(index, std::nothrow);
  cudaEvent_t event = nullptr;
  if (cudaEventCreateWithFlags(&event, cudaEventDisableTiming) == cudaSuccess &&
      cudaEventRecord(event, native_stream(stream_id)) == cudaSuccess)
    return event;
  // Without an event, wait for the stream: the memory can then be reused at once.
  if (event != nullptr) (void)cudaEventDestroy(event);
  (void)cudaStreamSynchronize(native_stream(stream_id));
  return nullptr;
}

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
