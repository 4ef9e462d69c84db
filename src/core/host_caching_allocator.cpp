// HostCachingAllocator (see host_caching_allocator.h): the rules of PyTorch's CachingHostAllocator
// (aten/src/ATen/core/CachingHostAllocator.h), without its background thread and cudaHostRegister
// mode.
//
// Note [Caching host allocator policy]
// Page-locking memory (cudaHostAlloc) costs far more than a malloc, and freeing it (cudaFreeHost)
// synchronises the device, so freed blocks are kept and handed out again:
// - Every size is rounded up to a power of two, which is also the block's size class: a request
//   reuses any free block of its class (the most recently freed first) and never a bigger one.
//   Blocks are neither split nor merged.
// - A block that asynchronous copies used is declared with record_stream (each copy to or from it
//   names its stream). Its free then records an event on each of those streams, and the block is
//   reused only once they have all completed: a copy still reading or writing it must not meet
//   the next tensor's bytes. A block no stream used is reusable at once.
// - Pending events are polled at the start of each allocation, in record order per stream.
// - When the source has no more memory, the cached blocks are released and the allocation
//   retried once; only then is OutOfMemoryError thrown. empty_cache() releases the same blocks.
#include "core/host_caching_allocator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <iterator>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "core/block_events.h"
#include "core/check.h"
#include "core/format_bytes.h"
#include "ember/stream.h"

namespace ember::detail {
namespace {

// No host has an exabyte, and rounding up to a power of two cannot overflow under it.
constexpr size_t kMaxRequest = size_t{1} << 60;
constexpr int kSizeClasses = 61;  // 2^0 .. 2^60

struct Block {
  Block(char* p, size_t n) : ptr(p), size(n) {}

  char* ptr;
  size_t size;  // a power of two
  bool allocated = false;
  std::vector<Stream> streams;  // used by work queued there (record_stream)
  int event_count = 0;          // events still pending after its free
};

int size_class(size_t size) { return static_cast<int>(std::bit_width(size)) - 1; }

// Streams of different devices may share an id (the default stream is 0 on every device).
using StreamKey = std::tuple<int, int, uint64_t>;
StreamKey key_of(const Stream& s) {
  return {static_cast<int>(s.device_type()), s.device().index(), s.id()};
}

}  // namespace

// The state behind one mutex. Every Block is owned by `blocks`; a block not handed out is in its
// free list, or waits in `pending` (once per stream it waits for).
struct HostCachingAllocator::Impl {
  explicit Impl(HostMemorySource& s) : source(s) {}

  HostMemorySource& source;
  mutable std::mutex mutex;
  HostStats stats;
  std::map<const char*, std::unique_ptr<Block>> blocks;  // by address
  std::array<std::vector<Block*>, kSizeClasses> free_lists;
  BlockEvents<StreamKey, Block> pending;

  void* allocate(size_t nbytes) {
    if (nbytes > kMaxRequest) [[unlikely]]
      out_of_memory(nbytes, nbytes);
    process_events();
    const size_t size = std::bit_ceil(nbytes);
    std::vector<Block*>& cached = free_lists[static_cast<size_t>(size_class(size))];
    Block* block = nullptr;
    if (!cached.empty()) {
      block = cached.back();
      cached.pop_back();
    } else {
      block = new_block(size, nbytes);
    }
    block->allocated = true;
    stats.active_requests.increase(1);
    stats.active_bytes.increase(static_cast<int64_t>(size));
    return block->ptr;
  }

  Block* new_block(size_t size, size_t nbytes) {
    void* ptr = source.raw_alloc(size);
    if (ptr == nullptr) {
      release_cached();
      ptr = source.raw_alloc(size);
    }
    if (ptr == nullptr) out_of_memory(nbytes, size);
    auto block = std::make_unique<Block>(static_cast<char*>(ptr), size);
    Block* raw = block.get();
    blocks.emplace(raw->ptr, std::move(block));
    stats.allocations.increase(1);
    stats.allocated_bytes.increase(static_cast<int64_t>(size));
    ++stats.num_host_alloc;
    return raw;
  }

  void deallocate(void* ptr) noexcept {
    auto it = blocks.find(static_cast<const char*>(ptr));
    EMBER_INTERNAL_ASSERT(it != blocks.end() && it->second->allocated,
                          "freeing page-locked memory the allocator did not hand out");
    Block* block = it->second.get();
    block->allocated = false;
    for (const Stream& stream : block->streams) {
      if (void* event = source.record_event(stream)) pending.add(key_of(stream), event, block);
    }
    block->streams.clear();
    if (block->event_count == 0) make_reusable(block);
  }

  void make_reusable(Block* block) {
    free_lists[static_cast<size_t>(size_class(block->size))].push_back(block);
    stats.active_requests.decrease(1);
    stats.active_bytes.decrease(static_cast<int64_t>(block->size));
  }

  // The handed-out block `ptr` points into, or nullptr.
  Block* block_of(const void* ptr) const {
    auto it = blocks.upper_bound(static_cast<const char*>(ptr));
    if (it == blocks.begin()) return nullptr;
    Block* block = std::prev(it)->second.get();
    const uintptr_t offset =
        reinterpret_cast<uintptr_t>(ptr) - reinterpret_cast<uintptr_t>(block->ptr);
    return offset < block->size && block->allocated ? block : nullptr;
  }

  // Makes the blocks whose events have all completed reusable.
  void process_events() {
    process_pending([&](void* event) { return source.query_event(event); });
  }

  void process_pending(auto done) {
    pending.process(
        done, [&](void* event) { source.release_event(event); },
        [&](Block* block) { make_reusable(block); });
  }

  void release_cached() {
    process_events();
    for (std::vector<Block*>& cached : free_lists) {
      for (Block* block : cached) release(block);
      cached.clear();
    }
  }

  void release(Block* block) {
    const char* ptr = block->ptr;
    source.raw_free(block->ptr);
    stats.allocations.decrease(1);
    stats.allocated_bytes.decrease(static_cast<int64_t>(block->size));
    ++stats.num_host_free;
    blocks.erase(ptr);  // deletes the block
  }

  [[noreturn]] void out_of_memory(size_t nbytes, size_t size) {
    fail<OutOfMemoryError>(
        "[ember] out of page-locked (pinned) host memory: tried to allocate ", format_bytes(size),
        size == nbytes ? "" : ember::str(" for a request of ", format_bytes(nbytes)),
        " after releasing the cached blocks; ember holds ",
        format_bytes(static_cast<size_t>(stats.allocated_bytes.current)), " of it, ",
        format_bytes(static_cast<size_t>(stats.active_bytes.current)),
        " in use. Free pinned tensors, or copy ordinary tensors (non_blocking=false).");
  }

  // Drops the pending events (their blocks become free) and releases every free block.
  ~Impl() {
    process_pending([](void*) { return true; });
    release_cached();
  }
};

HostCachingAllocator::HostCachingAllocator(HostMemorySource& source)
    : impl_(std::make_unique<Impl>(source)) {}

HostCachingAllocator::~HostCachingAllocator() = default;

void* HostCachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->allocate(nbytes);
}

void HostCachingAllocator::deallocate(void* ptr, size_t /*nbytes*/) noexcept {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->deallocate(ptr);
}

bool HostCachingAllocator::owns(const void* ptr) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->block_of(ptr) != nullptr;
}

bool HostCachingAllocator::record_stream(const void* ptr, const Stream& stream) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Block* block = impl_->block_of(ptr);
  if (block == nullptr) return false;
  if (std::ranges::find(block->streams, stream) == block->streams.end())
    block->streams.push_back(stream);
  return true;
}

void HostCachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->release_cached();
}

HostStats HostCachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

std::map<std::string, int64_t> flatten_host_stats(const HostStats& stats) {
  std::map<std::string, int64_t> flat;
  add_flat_stat(flat, "active_bytes", stats.active_bytes);
  add_flat_stat(flat, "active_requests", stats.active_requests);
  add_flat_stat(flat, "allocated_bytes", stats.allocated_bytes);
  add_flat_stat(flat, "allocations", stats.allocations);
  flat["num_host_alloc"] = stats.num_host_alloc;
  flat["num_host_free"] = stats.num_host_free;
  return flat;
}

}  // namespace ember::detail
