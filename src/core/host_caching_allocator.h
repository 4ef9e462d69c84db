// The caching host allocator: PyTorch's CachingHostAllocator policy for page-locked host memory as
// plain C++ over an abstract source of such memory and of stream events. src/cuda adapts it to
// cudaHostAlloc; the tests drive a fake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/allocator.h"
#include "core/caching_allocator.h"

namespace ember {
class Stream;
}

namespace ember::detail {

// What the caching host allocator needs from a device runtime. It must outlive the allocator.
class HostMemorySource {
 public:
  virtual ~HostMemorySource() = default;
  // nbytes of page-locked host memory, or nullptr when there is not enough; other failures throw.
  virtual void* raw_alloc(size_t nbytes) = 0;
  // Returns memory from raw_alloc. Never throws: frees run from destructors and at exit.
  virtual void raw_free(void* ptr) noexcept = 0;
  // An opaque event after the work queued on `stream` so far, or nullptr when that work is known
  // to be complete (a source that cannot record one waits for the stream).
  virtual void* record_event(const Stream& stream) noexcept = 0;
  // Whether the work before the event has completed, without waiting.
  virtual bool query_event(void* event) = 0;
  virtual void release_event(void* event) noexcept = 0;
};

// torch.cuda.host_memory_stats's statistics.
struct HostStats {
  Stat allocations;            // blocks the allocator owns, handed out or cached
  Stat allocated_bytes;        // their bytes
  Stat active_requests;        // blocks handed out and not reusable yet (in use or awaiting events)
  Stat active_bytes;           // their bytes
  int64_t num_host_alloc = 0;  // raw allocations
  int64_t num_host_free = 0;   // raw frees
};

// host_memory_stats's flat, sorted keys: "active_bytes.current", ..., "num_host_free".
std::map<std::string, int64_t> flatten_host_stats(const HostStats& stats);

// Page-locked host memory for asynchronous copies (Note [Caching host allocator policy] in
// host_caching_allocator.cpp). Thread-safe.
class HostCachingAllocator final : public Allocator {
 public:
  explicit HostCachingAllocator(HostMemorySource& source);
  // Returns the cached blocks; blocks still in use stay with the source. The CUDA backend never
  // destroys its allocator: storages may be freed at exit.
  ~HostCachingAllocator() override;
  HostCachingAllocator(const HostCachingAllocator&) = delete;
  HostCachingAllocator& operator=(const HostCachingAllocator&) = delete;

  // nullptr for 0 bytes; throws OutOfMemoryError when even an emptied cache leaves too little.
  void* allocate(size_t nbytes) override;
  void deallocate(void* ptr, size_t nbytes) noexcept override;
  // Whether `ptr` points into a block handed out and not yet freed.
  bool owns(const void* ptr) const;
  // Declares that the block `ptr` points into is used by the work queued on `stream`: once freed,
  // it is reused only after that work has completed (PyTorch's CachingHostAllocator_recordEvent).
  // Returns false, recording nothing, for memory that is not from this allocator.
  bool record_stream(const void* ptr, const Stream& stream);
  // Returns the cached blocks whose events have completed to the source.
  void empty_cache();

  HostStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ember::detail
