// detail::BatchDataBuffer: between a ChunkDataset's preloader threads, which add whole chunks,
// and its get_batch, which takes one batch at a time (LibTorch's datasets::detail::
// BatchDataBuffer). The preloaders wait while it holds `capacity` examples or more, so reading
// stays at most about one chunk per preloader ahead of training.
//
// Note [The chunk buffer's open batch]: a chunk's examples, in the example sampler's order, go
// into one open batch, which is queued once it holds batch_size examples. So every batch but the
// epoch's last is full, across chunk boundaries and however the preloaders' chunks interleave. A
// preloader's exception is queued between two batches and never splits one (LibTorch appends the
// next chunk's examples to the exception's own entry, where they are lost). Once the preloaders
// are done (close()), the open batch is the epoch's last.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "ember/data/worker_exception.h"
#include "ember/error.h"

namespace ember::data::detail {

template <typename Batch, typename ExampleSampler>
class BatchDataBuffer {
 public:
  BatchDataBuffer(size_t batch_size, ExampleSampler& example_sampler, size_t capacity)
      : batch_size_(batch_size), capacity_(capacity), example_sampler_(example_sampler) {}

  // The next batch, once one is full or the preloaders are done; nullopt when the epoch is over.
  // A preloader's exception is thrown here, in a WorkerException as LibTorch's.
  std::optional<Batch> get_batch() {
    std::unique_lock<std::mutex> lock(mutex_);
    batch_ready_.wait(lock, [this] { return !queue_.empty() || closed_; });
    if (queue_.empty() && open_batch_.empty()) return std::nullopt;
    Entry entry = queue_.empty() ? Entry{std::exchange(open_batch_, {}), nullptr} : pop_front();
    example_count_ -= entry.batch.size();
    lock.unlock();
    room_freed_.notify_all();
    if (entry.exception) throw WorkerException(entry.exception);
    return std::move(entry.batch);
  }

  // Called by a preloader: waits for room, then spreads `chunk`'s examples over batches in the
  // example sampler's order. False when the buffer was closed meanwhile: the preloader stops.
  bool add_chunk(Batch chunk) {
    std::unique_lock<std::mutex> lock(mutex_);
    room_freed_.wait(lock, [this] { return example_count_ < capacity_ || closed_; });
    if (closed_) return false;
    for (size_t index : example_order(chunk.size())) {
      open_batch_.push_back(std::move(chunk[index]));
      ++example_count_;
      if (open_batch_.size() == batch_size_)
        queue_.push_back({std::exchange(open_batch_, {}), nullptr});
    }
    lock.unlock();
    batch_ready_.notify_all();
    return true;
  }

  // Called by a preloader that caught `exception` (reading a chunk, or in the samplers).
  void add_exception(std::exception_ptr exception) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return;  // the epoch was abandoned: nobody will read it
      queue_.push_back({Batch(), std::move(exception)});
    }
    batch_ready_.notify_all();
  }

  // No more chunks: the preloaders are done, or the epoch is abandoned. Wakes every waiter.
  void close() {
    {
      // Under the lock, so that no waiter checks closed_ and then misses the notification.
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    room_freed_.notify_all();
    batch_ready_.notify_all();
  }

  bool closed() {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_;
  }

 private:
  struct Entry {
    Batch batch;
    std::exception_ptr exception;
  };

  Entry pop_front() {
    Entry entry = std::move(queue_.front());
    queue_.pop_front();
    return entry;
  }

  // The example sampler's order of a chunk of `size` examples (the sampler is shared by the
  // preloaders, so this runs under the lock).
  std::vector<size_t> example_order(size_t size) {
    example_sampler_.reset(size);
    std::vector<size_t> order;
    order.reserve(size);
    while (order.size() < size) {
      auto indices = example_sampler_.next(size - order.size());
      if (!indices || indices->empty()) break;  // a sampler that leaves examples out
      for (size_t index : *indices) {
        if (index >= size) throw Error("Index out of range");
        order.push_back(index);
      }
    }
    return order;
  }

  const size_t batch_size_;
  const size_t capacity_;
  ExampleSampler& example_sampler_;

  std::mutex mutex_;
  std::condition_variable batch_ready_;
  std::condition_variable room_freed_;
  std::deque<Entry> queue_;  // full batches and exceptions
  Batch open_batch_;
  size_t example_count_ = 0;  // in queue_ and open_batch_
  bool closed_ = false;
};

}  // namespace ember::data::detail
