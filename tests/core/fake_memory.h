// Memory and events standing in for a device's, for the tests of the two caching allocators'
// policies (core/caching_allocator.h, core/host_caching_allocator.h): host memory capped at a
// capacity, and events that complete only when the test says so. StreamKey is how the
// allocator's source interface names a stream.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace ember::test {

template <class StreamKey>
class FakeMemory {
 public:
  struct Event {
    StreamKey stream;
    bool done = false;
    bool released = false;
  };

  explicit FakeMemory(size_t capacity) : capacity_(capacity) {}
  ~FakeMemory() {
    for (auto [ptr, size] : live_) std::free(ptr);
  }
  FakeMemory(const FakeMemory&) = delete;
  FakeMemory& operator=(const FakeMemory&) = delete;

  // The sources' raw_alloc / raw_free / record_event / query_event / release_event.
  void* allocate_raw(size_t nbytes) {
    if (in_use() + nbytes > capacity_) {
      ++failed_allocs;
      return nullptr;
    }
    auto* ptr = static_cast<char*>(std::malloc(nbytes));
    live_[ptr] = nbytes;
    alloc_sizes.push_back(nbytes);
    return ptr;
  }
  void free_raw(void* ptr) noexcept {
    live_.erase(static_cast<char*>(ptr));
    std::free(ptr);
    ++frees;
  }
  void* record(const StreamKey& stream) {
    events.push_back(std::make_unique<Event>(Event{stream, false, false}));
    return events.back().get();
  }
  static bool is_done(void* event) { return static_cast<Event*>(event)->done; }
  static void finish(void* event) { static_cast<Event*>(event)->done = true; }
  static void release(void* event) noexcept { static_cast<Event*>(event)->released = true; }

  // Completes the work recorded on `stream` so far.
  void complete(const StreamKey& stream) {
    for (auto& e : events)
      if (e->stream == stream) e->done = true;
  }
  size_t capacity() const { return capacity_; }
  size_t in_use() const {
    size_t n = 0;
    for (auto [ptr, size] : live_) n += size;
    return n;
  }
  size_t live_segments() const { return live_.size(); }
  // Whether [p, p + n) lies inside one live allocation.
  bool owns(const char* p, size_t n) const {
    auto it = live_.upper_bound(p);
    if (it == live_.begin()) return false;
    --it;
    return p + n <= it->first + it->second;
  }
  int unreleased_events() const {
    int n = 0;
    for (auto& e : events) n += e->released ? 0 : 1;
    return n;
  }

  std::vector<size_t> alloc_sizes;  // of the successful raw allocations, in order
  int failed_allocs = 0;
  int frees = 0;
  std::vector<std::unique_ptr<Event>> events;

 private:
  size_t capacity_;
  std::map<char*, size_t, std::less<>> live_;
};

}  // namespace ember::test
