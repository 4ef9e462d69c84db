// PendingWrite: an asynchronous write into a storage's host memory that has not been waited for
// yet, and the slot in every StorageImpl through which host access waits for it first.
//
// Note [Safe non-blocking copies to the host]
// A non_blocking copy from a GPU into page-locked host memory returns before its bytes arrive.
// PyTorch leaves the wait to the caller, and a read before it gives stale values (pytorch#127612).
// ember hangs the copy's completion (an event recorded after it on its stream) on the destination
// storage instead, and TensorImpl::data() waits for it and clears it. data() is the one way host
// code reaches a storage's bytes: data_ptr, item, span, to_vector, printing, every CPU kernel (its
// TensorIter or ReduceIter takes the operands' addresses, outputs included) and the source of a
// copy to a GPU. So the host runs on until it touches the bytes, never past that, and nothing has
// to remember to synchronize. A storage with nothing pending, nearly all of them, pays one load
// and a branch per data() call.
#pragma once

#include <atomic>
#include <memory>

#include "ember/device.h"

namespace ember {
class Stream;
}

namespace ember::detail {

class PendingWrite {
 public:
  virtual ~PendingWrite() = default;
  // Returns once the write has completed. May throw (a failed copy, sync debug mode "error"); the
  // write then stays pending.
  virtual void wait() = 0;
};

// The completion of a copy from src_device to dst_device queued on `stream` so far: an event
// recorded there now. Waiting for it before it has completed is an implicit host sync (reported
// as cuda::set_sync_debug_mode says and counted in transfer_stats().host_syncs).
std::unique_ptr<PendingWrite> pending_copy(const Stream& stream, Device src_device,
                                           Device dst_device);

// A storage's pending write, if any. Thread-safe: concurrent readers wait once between them.
class PendingWriteSlot {
 public:
  PendingWriteSlot() = default;
  PendingWriteSlot(const PendingWriteSlot&) = delete;
  PendingWriteSlot& operator=(const PendingWriteSlot&) = delete;
  // Nothing can read the bytes any more, so an unfinished write is dropped, not waited for (the
  // memory's allocator keeps it from being reused too early; ~StorageImpl calls finish() first
  // for memory without one).
  ~PendingWriteSlot() { delete writer_.load(std::memory_order_relaxed); }

  // The hot check: one load.
  bool pending() const noexcept { return writer_.load(std::memory_order_acquire) != nullptr; }
  // Waits for the pending write, if any, and clears it.
  void wait();
  // wait(), for a destructor: an error leaves the write pending and is dropped.
  void finish() noexcept;
  // Hangs a new write on the storage; one still pending (only a racing thread's can be) is
  // waited for as well.
  void set(std::unique_ptr<PendingWrite> writer);

 private:
  std::atomic<PendingWrite*> writer_{nullptr};
};

}  // namespace ember::detail
