// PendingWriteSlot's waits and the pending write of an asynchronous copy (see pending_write.h).
#include "core/pending_write.h"

#include <cstdint>
#include <mutex>

#include "core/check.h"
#include "core/sync_debug.h"
#include "ember/stream.h"

namespace ember::detail {
namespace {

// Serialises setting and clearing a slot. Only storages with a write pending ever take one, and
// a lock is held across the GPU wait, so slots share a few striped mutexes rather than one:
// threads reading the results of different copies seldom wait for each other's, and no storage
// grows by a mutex of its own.
std::mutex& mutex_for(const PendingWriteSlot* slot) {
  static auto* mutexes = new std::mutex[64];  // leaked: storages may be read during exit
  // Fibonacci hashing: the top 6 bits of the address times 2^64/phi spread aligned addresses.
  return mutexes[(reinterpret_cast<uintptr_t>(slot) * uint64_t{0x9E3779B97F4A7C15}) >> 58];
}

class PendingCopy final : public PendingWrite {
 public:
  PendingCopy(const Stream& stream, Device src_device, Device dst_device)
      : event_(stream.device_type()), src_device_(src_device), dst_device_(dst_device) {
    event_.record(stream);
  }

  // Synchronized even when the copy has arrived (no wait then): an index error that a kernel
  // queued before the copy found is raised here (Note [Index errors found by GPU kernels]).
  void wait() override {
    if (!event_.query())
      note_host_sync("copy_", ember::str("host access to the result of a non_blocking copy from ",
                                         src_device_, " to ", dst_device_, " before it completed"));
    event_.synchronize();
  }

 private:
  Event event_;
  Device src_device_, dst_device_;
};

}  // namespace

std::unique_ptr<PendingWrite> pending_copy(const Stream& stream, Device src_device,
                                           Device dst_device) {
  return std::make_unique<PendingCopy>(stream, src_device, dst_device);
}

// The destination's own write was waited for when the copy took its address (data()), so a
// write found here comes from a racing thread: it is waited for after the new one is in place,
// and dropped if that wait throws, as the new write overwrites the same bytes.
void PendingWriteSlot::set(std::unique_ptr<PendingWrite> writer) {
  std::lock_guard<std::mutex> lock(mutex_for(this));
  std::unique_ptr<PendingWrite> previous(
      writer_.exchange(writer.release(), std::memory_order_acq_rel));
  if (previous) previous->wait();
}

void PendingWriteSlot::wait() {
  std::lock_guard<std::mutex> lock(mutex_for(this));
  PendingWrite* writer = writer_.load(std::memory_order_relaxed);
  if (writer == nullptr) return;  // another thread waited meanwhile
  writer->wait();                 // on an exception the write stays pending
  writer_.store(nullptr, std::memory_order_release);
  delete writer;
}

void PendingWriteSlot::finish() noexcept {
  try {
    wait();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the storage is going away
  }
}

}  // namespace ember::detail
