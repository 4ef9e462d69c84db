// data::Iterator: the input iterator a loader's begin() returns. It fetches a batch when first
// read and at each ++, and compares equal to the loader's end() (a sentinel) once the loader has
// no more batches; two iterators that are not the sentinel are equal when they are copies of each
// other. Reading or advancing past the end throws, as LibTorch's.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "ember/error.h"

namespace ember::data {

template <typename Batch>
class Iterator {
 public:
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch*;
  using reference = Batch&;
  using iterator_category = std::input_iterator_tag;
  using BatchProducer = std::function<std::optional<Batch>()>;

  // The sentinel.
  Iterator() = default;
  explicit Iterator(BatchProducer next_batch)
      : state_(std::make_shared<State>(std::move(next_batch))) {}

  Iterator& operator++() {
    if (!state_) throw Error("Incrementing the DataLoader's past-the-end iterator is not allowed");
    state_->advance();
    return *this;
  }
  Batch& operator*() {
    if (!state_) throw Error("Dereferencing the DataLoader's past-the-end iterator is not allowed");
    return state_->current();
  }
  Batch* operator->() { return &**this; }

  bool operator==(const Iterator& other) const {
    if (state_ && other.state_) return state_ == other.state_;
    if (!state_ && !other.state_) return true;
    return (state_ ? state_ : other.state_)->exhausted();
  }
  bool operator!=(const Iterator& other) const { return !(*this == other); }

 private:
  // Shared by copies, so that a copy sees the batches its original fetched.
  class State {
   public:
    explicit State(BatchProducer next_batch) : next_batch_(std::move(next_batch)) {}
    void advance() {
      fetch_first();
      if (!batch_) throw Error("Attempted to increment iterator past the end");
      batch_ = next_batch_();
    }
    Batch& current() {
      fetch_first();
      if (!batch_) throw Error("Attempted to dereference iterator that was past the end");
      return *batch_;
    }
    bool exhausted() {
      fetch_first();
      return !batch_;
    }

   private:
    void fetch_first() {
      if (started_) return;
      batch_ = next_batch_();
      started_ = true;
    }

    BatchProducer next_batch_;
    std::optional<Batch> batch_;
    bool started_ = false;
  };

  std::shared_ptr<State> state_;
};

}  // namespace ember::data
