// CUDA streams and events for the files of src/cuda: the CUDA backend's stream and event hooks
// (cuda_stream.cpp, cuda_event.cpp), and the handles behind ember's opaque ids.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/backend.h"
#include "ember/stream.h"

namespace ember::cuda::impl {

// A Stream's id is its cudaStream_t; 0 is the legacy default stream, as in PyTorch.
inline cudaStream_t native_stream(uint64_t id) {
  return reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(id));
}
inline cudaStream_t native_stream(const Stream& stream) { return native_stream(stream.id()); }
inline uint64_t stream_id(cudaStream_t stream) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(stream));
}
inline cudaEvent_t native_event(void* event) { return static_cast<cudaEvent_t>(event); }

// This thread's current stream of a valid device index: what ember queues work and allocates on.
uint64_t current_stream_id(int index) noexcept;

// DeviceBackend's stream hooks (cuda_stream.cpp).
Stream current_stream(int index);
Stream exchange_stream(const Stream& stream) noexcept;
Stream stream_from_pool(int index, bool high_priority);
bool query_stream(const Stream& stream);
void synchronize_stream(const Stream& stream);

// DeviceBackend's event hooks (cuda_event.cpp).
void* create_event(int index, ::ember::detail::EventFlags flags);
void destroy_event(void* event, int index) noexcept;
void record_event(void* event, const Stream& stream);
void block_event(void* event, const Stream& stream);
bool query_event(void* event);
void synchronize_event(void* event);
double elapsed_ms(void* start, void* end, int index);
// For the caching allocators' deferred reuse (MemorySource and HostMemorySource::record_event):
// an event after the work queued so far on a stream of device `index`, or nullptr after waiting
// for that stream when no event can be recorded. Never throws. Give it back with
// release_reuse_event (Note [CUDA event pool]).
void* record_reuse_event(int index, uint64_t stream_id) noexcept;
void release_reuse_event(void* event) noexcept;

// Tensor::record_stream for the caching allocator of a valid device index (cuda_memory.cpp).
void record_stream(int index, void* data, uint64_t stream_id);

}  // namespace ember::cuda::impl
