// DeviceBackend: every service a device type provides (count, current device, memory, copies,
// streams, events, synchronisation), one per DeviceType in a fixed table filled by explicit
// registration.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "core/allocator.h"
#include "core/pending_write.h"
#include "ember/device.h"
#include "ember/stream.h"

namespace ember::detail {

// How an event is made (ember::Event's constructor arguments).
struct EventFlags {
  bool enable_timing = false;
  bool blocking = false;
  bool interprocess = false;
};

// Counts a copy in transfer_stats() (transfer_stats.cpp); copies within one device are not.
void count_transfer(Device src_device, Device dst_device, size_t nbytes) noexcept;

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  virtual int device_count() const noexcept = 0;
  virtual int current_device() = 0;
  virtual void set_device(int index) = 0;
  // Restores a device from a destructor (guards): never throws.
  virtual void unchecked_set_device(int index) noexcept = 0;
  // Throws the user-facing error for a device that cannot be used (bad ordinal, no GPU, ...).
  virtual void check_device(Device device) = 0;
  virtual Allocator& allocator(int index) = 0;
  // Host memory that copies with this device type can use asynchronously: page-locked memory for
  // CUDA (Tensor::pin_memory), any memory for the CPU. Throws the backend's error for a missing
  // device (CUDA not compiled, no GPU).
  virtual Allocator& host_allocator() = 0;

  // Copies nbytes between any two devices of which at least one is of this backend's type, on
  // the current streams. The one entry for copies between devices, so it counts them. Returns
  // what the host must wait for before it touches dst's bytes when the copy may still be writing
  // them (Note [Safe non-blocking copies to the host]), else null.
  [[nodiscard]] std::unique_ptr<PendingWrite> copy(void* dst, Device dst_device, const void* src,
                                                   Device src_device, size_t nbytes,
                                                   bool non_blocking) {
    std::unique_ptr<PendingWrite> pending =
        copy_bytes(dst, dst_device, src, src_device, nbytes, non_blocking);
    count_transfer(src_device, dst_device, nbytes);
    return pending;
  }
  // Waits for every stream of a device.
  virtual void synchronize(int index) = 0;

  // Streams (ember/stream.h): a stream's id is the backend's handle; 0 is the default stream.
  // `index` is a valid device index; streams passed in came from the backend.
  virtual Stream current_stream(int index) = 0;  // of this thread, initially the default
  // Makes `stream` current on its device for this thread; returns the stream it replaces.
  virtual Stream exchange_stream(const Stream& stream) noexcept = 0;
  virtual Stream stream_from_pool(int index, bool high_priority) = 0;
  virtual bool query_stream(const Stream& stream) = 0;
  virtual void synchronize_stream(const Stream& stream) = 0;

  // Events, as opaque handles. ember::Event checks the arguments (device types and indices,
  // recorded, timing) before it calls these.
  virtual void* create_event(int index, EventFlags flags) = 0;
  virtual void destroy_event(void* event, int index) noexcept = 0;
  virtual void record_event(void* event, const Stream& stream) = 0;
  virtual void block_event(void* event, const Stream& stream) = 0;  // the stream waits for it
  virtual bool query_event(void* event) = 0;
  virtual void synchronize_event(void* event) = 0;
  virtual double elapsed_ms(void* start, void* end, int index) = 0;

  // Tensor::record_stream: the memory at `data` (a storage this backend's allocator made) is
  // also used on `stream`, so its reuse waits for the work queued there when it is freed.
  virtual void record_stream(void* data, const Stream& stream) = 0;

 private:
  virtual std::unique_ptr<PendingWrite> copy_bytes(void* dst, Device dst_device, const void* src,
                                                   Device src_device, size_t nbytes,
                                                   bool non_blocking) = 0;
};

// The backend for a device type. CUDA in a CPU-only build throws NotCompiledError.
DeviceBackend& backend(DeviceType type);
// The same device with its index made concrete (cuda -> cuda:<current>, cpu -> cpu), checked.
Device resolve_device(Device device);

// Filled by each backend's own file; registry.cpp calls them once.
DeviceBackend* make_cpu_backend();
DeviceBackend* make_cuda_backend();  // src/cuda/cuda_backend.cpp, or no_cuda.cpp

}  // namespace ember::detail
