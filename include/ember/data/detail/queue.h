// detail::Queue: the locked, blocking queue between a loader and its worker threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <queue>
#include <utility>

#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::data::detail {

template <typename T>
class Queue {
 public:
  void push(T value) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push(std::move(value));
    }
    ready_.notify_one();
  }

  // The front value, once there is one; throws when `timeout` passes first.
  T pop(std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto not_empty = [this] { return !queue_.empty(); };
    if (!timeout) {
      ready_.wait(lock, not_empty);
    } else if (!ready_.wait_for(lock, *timeout, not_empty)) {
      throw Error(str("Timeout in DataLoader queue while waiting for next batch (timeout was ",
                      timeout->count(), " ms)"));
    }
    T value = std::move(queue_.front());
    queue_.pop();
    return value;
  }

  // Empties the queue; returns how many values it held.
  size_t clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t size = queue_.size();
    queue_ = {};
    return size;
  }

 private:
  std::queue<T> queue_;
  std::mutex mutex_;
  std::condition_variable ready_;
};

}  // namespace ember::data::detail
