// The events a freed block waits for before its memory may be reused, shared by the device and
// the host caching allocators: one event per stream that used the block (record_stream), recorded
// at its free and queued per stream in record order. The block counts its events in
// `event_count` and becomes reusable when the last one has completed.
#pragma once

#include <deque>
#include <iterator>
#include <map>
#include <utility>

namespace ember::detail {

template <class StreamKey, class Block>
class BlockEvents {
 public:
  // `event` was recorded on `stream` after the work that uses `block`.
  void add(const StreamKey& stream, void* event, Block* block) {
    ++block->event_count;
    queues_[stream].emplace_back(event, block);
  }

  // Takes each stream's events oldest first while done(event) says it has completed (done may
  // wait for it); a stream's later events cannot have completed before an earlier one. Each one
  // taken goes to release(event), and a block whose last event it was to reusable(block).
  template <class Done, class Release, class Reusable>
  void process(Done done, Release release, Reusable reusable) {
    for (auto it = queues_.begin(); it != queues_.end();) {
      auto& queue = it->second;
      while (!queue.empty()) {
        auto [event, block] = queue.front();
        if (!done(event)) break;
        queue.pop_front();
        release(event);
        if (--block->event_count == 0) reusable(block);
      }
      it = queue.empty() ? queues_.erase(it) : std::next(it);
    }
  }

 private:
  std::map<StreamKey, std::deque<std::pair<void*, Block*>>> queues_;
};

}  // namespace ember::detail
