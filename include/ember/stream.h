// Streams and events: ordered queues of device work, and markers in them to wait on and time
// with, as torch.Stream / torch.Event for every device and torch.cuda.Stream / Event for GPUs.
//
// Note [One Stream and Event for every device]
// PyTorch has device-generic torch.Stream / torch.Event beside torch.cuda.Stream / Event, which
// add what only CUDA code needs: the raw cudaStream_t / cudaEvent_t. ember's public headers never
// show CUDA types, so a CUDA-only class would add no member; the backend behind the device type
// does the work. So there is one Stream (a device plus the backend's id) and one Event, and
// cuda::Stream / cuda::Event are the same types with CUDA defaults. Stream-generic code then runs
// unchanged on the CPU, whose single stream is always complete (query() is true, synchronize()
// returns at once) and whose events complete when recorded, stamped with the host clock.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>

#include "ember/device.h"
#include "ember/macros.h"

namespace ember {

class Event;

// A handle to a stream: a small value, copied freely and compared by device and id. The backend
// owns the queue itself. Id 0 is every device's default stream; others come from the pool.
class EMBER_API Stream {
 public:
  // For backends, which hand out ids of streams they own; users get streams from
  // current_stream(), default_stream() or get_stream_from_pool().
  static Stream unchecked(Device device, uint64_t id) noexcept { return Stream(device, id); }

  Device device() const noexcept { return device_; }
  DeviceType device_type() const noexcept { return device_.type(); }
  uint64_t id() const noexcept { return id_; }

  // Whether all work queued so far has completed (never waits).
  bool query() const;
  // Waits until all work queued so far has completed.
  void synchronize() const;
  // Work queued here from now on waits for `event` (for the work before its record); the host
  // does not wait. An event never recorded is a no-op.
  void wait_event(const Event& event) const;
  // Work queued here from now on waits for the work queued on `other` so far.
  void wait_stream(const Stream& other) const;
  // A new event recorded here.
  Event record_event() const;

  friend bool operator==(const Stream& a, const Stream& b) noexcept {
    return a.device_ == b.device_ && a.id_ == b.id_;
  }

 private:
  Stream(Device device, uint64_t id) noexcept : device_(device), id_(id) {}
  Device device_;
  uint64_t id_;
};

// "stream 0x0 on device cuda:0": c10::Stream's format, with the id (a CUDA handle) in hex.
EMBER_API std::ostream& operator<<(std::ostream& os, const Stream& stream);

// A marker in a stream, of one device type. The backend's event is created on the first record,
// which also fixes the device: every later record must be on a stream of that device. Move-only.
class EMBER_API Event {
 public:
  // enable_timing: elapsed_time() works (CUDA events are cheaper without). blocking:
  // synchronize() sleeps instead of spinning. interprocess: shareable between processes (CUDA
  // requires it to be without timing).
  explicit Event(DeviceType type, bool enable_timing = false, bool blocking = false,
                 bool interprocess = false);
  ~Event();
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  DeviceType device_type() const noexcept { return type_; }
  // The device of its first record; nullopt before.
  std::optional<Device> device() const;

  // Marks the work queued so far on the current stream of this thread's current device.
  void record();
  void record(const Stream& stream);
  // Makes future work on the stream wait for this event (torch's Event.wait).
  void wait() const;
  void wait(const Stream& stream) const;
  // Whether the recorded work has completed; true if never recorded.
  bool query() const;
  // Waits for the recorded work; returns at once if never recorded.
  void synchronize() const;
  // Milliseconds from this event to `end`; both recorded with enable_timing and completed.
  double elapsed_time(const Event& end) const;

 private:
  void* native_ = nullptr;  // the backend's event, from the first record
  DeviceType type_;
  int index_ = -1;
  bool enable_timing_, blocking_, interprocess_;
};

// This thread's current stream on `device` (initially its default stream); "cuda" means the
// current GPU. Work ember queues on a device goes to its current stream.
EMBER_API Stream current_stream(Device device);
EMBER_API Stream default_stream(Device device);
// A stream of the device's pool, round-robin as PyTorch's (32 per priority and device): cheap to
// get, never destroyed, so two requests may share one queue. The CPU answers its only stream.
EMBER_API Stream get_stream_from_pool(Device device, bool high_priority = false);
// Makes `stream` current on its device and, as torch.cuda.set_stream, that device current.
EMBER_API void set_stream(const Stream& stream);
// Waits for all work on every stream of `device`.
EMBER_API void synchronize(Device device);

// Makes a stream and its device current on this thread for a scope (torch.cuda.stream(s)), then
// restores both; the previous device keeps its current stream.
class EMBER_API StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  Stream previous_stream_;  // of the guarded stream's device
  int previous_device_;
};

namespace cuda {

using Stream = ::ember::Stream;
using StreamGuard = ::ember::StreamGuard;
using ::ember::set_stream;

// torch.cuda.Event: an Event of the GPU.
class EMBER_API Event : public ::ember::Event {
 public:
  explicit Event(bool enable_timing = false, bool blocking = false, bool interprocess = false)
      : ::ember::Event(DeviceType::CUDA, enable_timing, blocking, interprocess) {}
};

// `device` -1 means the current GPU.
EMBER_API Stream current_stream(int device = -1);
EMBER_API Stream default_stream(int device = -1);
EMBER_API Stream get_stream_from_pool(int device = -1, bool high_priority = false);

}  // namespace cuda
}  // namespace ember
