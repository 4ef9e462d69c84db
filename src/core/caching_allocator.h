// The caching allocator: PyTorch's CUDA caching policy as plain C++ over an abstract source of raw
// device memory and stream events. src/cuda adapts it to cudaMalloc; the tests drive a fake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/allocator.h"

namespace ember::detail {

// A stream of one device as an opaque id (the backend's handle as an integer, Stream::id()); 0 is
// the default stream. The CUDA backend allocates storages on their device's current stream.
using StreamId = uintptr_t;
inline constexpr StreamId kDefaultStream = 0;

// What the caching allocator needs from one device. It must outlive the allocator.
class MemorySource {
 public:
  struct Capacity {
    size_t free = 0, total = 0;  // bytes
  };

  virtual ~MemorySource() = default;
  // nbytes of device memory, or nullptr when the device is out of memory; other failures throw.
  virtual void* raw_alloc(size_t nbytes) = 0;
  // Returns memory from raw_alloc. Never throws: frees run from destructors and at exit.
  virtual void raw_free(void* ptr) noexcept = 0;
  // An opaque event after the work queued on `stream` so far (Note [Stream-ordered reuse]), or
  // nullptr when that work is known to be complete (a source that cannot record one waits).
  virtual void* record_event(StreamId stream) noexcept = 0;
  // Whether the work before the event has completed, without waiting.
  virtual bool query_event(void* event) = 0;
  virtual void synchronize_event(void* event) = 0;
  virtual void release_event(void* event) noexcept = 0;
  virtual Capacity mem_get_info() = 0;
  // The words of the OOM message: "<api> out of memory. ... <device> has a total capacity of ...".
  virtual std::string api_name() const = 0;     // "CUDA"
  virtual std::string device_name() const = 0;  // "GPU 0"
};

// One statistic as PyTorch keeps it: its value, the value's peak, and the running totals of its
// increases (allocated) and decreases (freed).
struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;

  void increase(int64_t n) {
    current += n;
    if (current > peak) peak = current;
    allocated += n;
  }
  void decrease(int64_t n) {
    current -= n;
    freed += n;
  }
};
// A statistic over both pools and for each (memory_stats's "all", "small_pool", "large_pool").
struct PoolStats {
  Stat all, small_pool, large_pool;
};
// PyTorch's DeviceStats; the member names are memory_stats's key prefixes.
struct DeviceStats {
  PoolStats allocation;      // blocks handed out
  PoolStats segment;         // raw allocations held
  PoolStats active;          // blocks handed out or freed but still used by another stream
  PoolStats inactive_split;  // free blocks in segments that cannot be released yet
  PoolStats allocated_bytes, reserved_bytes, active_bytes, inactive_split_bytes;
  PoolStats requested_bytes;      // what callers asked for, before rounding
  int64_t num_alloc_retries = 0;  // raw allocations retried after emptying the cache
  int64_t num_ooms = 0;           // OutOfMemoryErrors thrown
  int64_t num_sync_all_streams = 0;
  int64_t num_device_alloc = 0;
  int64_t num_device_free = 0;
};

// memory_stats's flat, sorted keys: "active.all.current", ..., "num_ooms", "segment...".
std::map<std::string, int64_t> flatten_stats(const DeviceStats& stats);
// Adds "<name>.current", "<name>.peak", "<name>.allocated" and "<name>.freed" to `flat`.
void add_flat_stat(std::map<std::string, int64_t>& flat, const std::string& name, const Stat& stat);
// torch.cuda.memory_summary's 75-column table of flat stats (a missing key reads as 0).
std::string format_memory_summary(const std::map<std::string, int64_t>& stats, int device,
                                  bool abbreviated);

// One device's allocator (Note [Caching allocator policy] in caching_allocator.cpp). Thread-safe.
// With caching off (PYTORCH_NO_CUDA_MEMORY_CACHING) every allocation is a raw allocation of the
// exact size, returned to the source as soon as it is free, and the statistics still count.
class CachingAllocator final : public Allocator {
 public:
  explicit CachingAllocator(MemorySource& source, bool caching = true);
  // Returns the cached segments without waiting for any stream; what is still allocated stays
  // with the source. The backends never destroy theirs: storages may be freed at exit.
  ~CachingAllocator() override;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // nullptr for 0 bytes; throws OutOfMemoryError when even an emptied cache leaves too little.
  void* allocate(size_t nbytes) override { return allocate(nbytes, kDefaultStream); }
  void* allocate(size_t nbytes, StreamId stream);
  void deallocate(void* ptr, size_t nbytes) noexcept override;
  // Declares that `ptr` is also used on `stream`: its free waits for the work queued there.
  void record_stream(void* ptr, StreamId stream);
  // Returns every segment with no block in use to the source (waiting for pending frees first).
  void empty_cache();

  DeviceStats stats() const;
  void reset_peak_stats();         // peak = current
  void reset_accumulated_stats();  // allocated = freed = 0, and the counters

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ember::detail
