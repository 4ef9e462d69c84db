// CachingAllocator (see caching_allocator.h): the rules are PyTorch's, from
// c10/cuda/CUDACachingAllocator.cpp, without its configuration knobs (max_split_size, rounding
// divisions, expandable segments, graph pools).
//
// Note [Caching allocator policy]
// cudaMalloc is slow and cudaFree synchronises the whole device, so freed memory is kept and handed
// out again instead of being returned:
// - Every size is rounded up to a multiple of 512 B, so blocks tile a segment without slivers.
// - Requests up to 1 MiB come from the small pool, carved out of 2 MiB segments: many small tensors
//   share one raw allocation. Larger ones come from the large pool: a request under 10 MiB reserves
//   a 20 MiB segment that later mid-sized requests share, and a bigger one reserves its own size
//   rounded up to 2 MiB.
// - A request takes the smallest free block that fits (best fit, then lowest address: the free set
//   is ordered by (stream, size, address)). The tail is split off when it is worth keeping: at
//   least 512 B in the small pool, more than 1 MiB in the large one, where a smaller tail would
//   rarely fit anything and only fragment the segment.
// - A freed block merges with its free neighbours, so a segment whose blocks are all free is one
//   block again and can be released.
// - When a raw allocation fails, every segment that is wholly free is released and the allocation
//   retried once; only then is OutOfMemoryError thrown. empty_cache() releases the same segments:
//   memory in live blocks is never touched.
//
// Note [Stream-ordered reuse]
// A block belongs to the stream it was allocated on. Work on one stream runs in order, so a block
// freed by the host can go to the next allocation on that stream at once, even while kernels still
// read it: they finish before any later work on the stream starts. No other stream has that
// ordering, so blocks are only reused on their own. A tensor used on other streams too is declared
// with record_stream; its free then records an event on each of them, and the block stays active
// (neither reusable nor mergeable) until they have all completed. Pending events are polled at the
// start of each allocation and waited for when the cache is emptied.
#include "core/caching_allocator.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <mutex>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/block_events.h"
#include "core/check.h"
#include "core/format_bytes.h"

namespace ember::detail {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kMinBlockSize = 512;       // every size is a multiple of it
constexpr size_t kSmallSize = kMiB;         // the largest request of the small pool
constexpr size_t kSmallBuffer = 2 * kMiB;   // the small pool's segments
constexpr size_t kLargeBuffer = 20 * kMiB;  // the segment for requests under kMinLargeAlloc
constexpr size_t kMinLargeAlloc = 10 * kMiB;
constexpr size_t kRoundLarge = 2 * kMiB;  // bigger requests reserve a multiple of it
// Without caching, sizes are rounded to whole 32-bit words: a kernel that updates a 1- or 2-byte
// element through its aligned word (scatter_add's atomicCAS) stays inside the allocation, which
// compute-sanitizer checks exactly in that mode.
constexpr size_t kWordSize = 4;
// No device has an exabyte, and the rounding below cannot overflow under it.
constexpr size_t kMaxRequest = size_t{1} << 60;

size_t round_up(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

size_t round_size(size_t nbytes) {
  return round_up(std::max(nbytes, kMinBlockSize), kMinBlockSize);
}

size_t segment_size(size_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return round_up(size, kRoundLarge);
}

// Counts n in the aggregate and in the block's own pool.
void increase(PoolStats& s, bool small, size_t n) {
  s.all.increase(static_cast<int64_t>(n));
  (small ? s.small_pool : s.large_pool).increase(static_cast<int64_t>(n));
}

void decrease(PoolStats& s, bool small, size_t n) {
  s.all.decrease(static_cast<int64_t>(n));
  (small ? s.small_pool : s.large_pool).decrease(static_cast<int64_t>(n));
}

// A net change, counted in the totals once (as PyTorch's free_block does).
void change(PoolStats& s, bool small, int64_t delta) {
  if (delta > 0) increase(s, small, static_cast<size_t>(delta));
  if (delta < 0) decrease(s, small, static_cast<size_t>(-delta));
}

// The statistics by their memory_stats names, for flattening and resetting them all alike.
constexpr std::pair<const char*, PoolStats DeviceStats::*> kPoolStats[] = {
    {"active", &DeviceStats::active},
    {"active_bytes", &DeviceStats::active_bytes},
    {"allocated_bytes", &DeviceStats::allocated_bytes},
    {"allocation", &DeviceStats::allocation},
    {"inactive_split", &DeviceStats::inactive_split},
    {"inactive_split_bytes", &DeviceStats::inactive_split_bytes},
    {"requested_bytes", &DeviceStats::requested_bytes},
    {"reserved_bytes", &DeviceStats::reserved_bytes},
    {"segment", &DeviceStats::segment},
};
constexpr std::pair<const char*, Stat PoolStats::*> kPools[] = {
    {"all", &PoolStats::all},
    {"large_pool", &PoolStats::large_pool},
    {"small_pool", &PoolStats::small_pool},
};
constexpr std::pair<const char*, int64_t DeviceStats::*> kCounters[] = {
    {"num_alloc_retries", &DeviceStats::num_alloc_retries},
    {"num_device_alloc", &DeviceStats::num_device_alloc},
    {"num_device_free", &DeviceStats::num_device_free},
    {"num_ooms", &DeviceStats::num_ooms},
    {"num_sync_all_streams", &DeviceStats::num_sync_all_streams},
};

template <class F>
void for_each_stat(DeviceStats& stats, F f) {
  for (auto [name, member] : kPoolStats)
    for (auto [pool, stat] : kPools) f((stats.*member).*stat);
}

// A piece of a segment: allocated, free (in its pool) or pending (waiting for events).
struct Block {
  Block(char* p, size_t n, StreamId s, bool in_small_pool)
      : ptr(p), size(n), stream(s), small(in_small_pool) {}

  char* ptr;
  size_t size;
  StreamId stream;
  bool small;  // its pool
  bool allocated = false;
  size_t requested = 0;   // the caller's size while allocated
  Block* prev = nullptr;  // the neighbours in its segment
  Block* next = nullptr;
  std::vector<StreamId> stream_uses;  // other streams using it (record_stream)
  int event_count = 0;                // events still pending after its free

  bool is_split() const { return prev != nullptr || next != nullptr; }
};

// Best fit first: lower_bound on (stream, size) finds the smallest block of that stream that fits.
struct BySize {
  static auto key(const Block* b) {
    return std::tuple(b->stream, b->size, reinterpret_cast<uintptr_t>(b->ptr));
  }
  bool operator()(const Block* a, const Block* b) const { return key(a) < key(b); }
};
using FreeBlocks = std::set<Block*, BySize>;

}  // namespace

// The state behind one mutex. Every Block is owned here: it sits in a pool (free), in `allocated`,
// or in `pending` (once per stream it waits for).
struct CachingAllocator::Impl {
  Impl(MemorySource& s, bool c) : source(s), caching(c) {}

  MemorySource& source;
  const bool caching;
  mutable std::mutex mutex;
  DeviceStats stats;
  FreeBlocks small_pool, large_pool;
  std::unordered_map<void*, Block*> allocated;
  BlockEvents<StreamId, Block> pending;

  FreeBlocks& pool(bool small) { return small ? small_pool : large_pool; }

  void* allocate(size_t nbytes, StreamId stream) {
    if (nbytes > kMaxRequest) [[unlikely]]
      out_of_memory(nbytes, nbytes);
    process_events(/*wait=*/false);
    const size_t size = caching ? round_size(nbytes) : round_up(nbytes, kWordSize);
    const size_t alloc_size = caching ? segment_size(size) : size;
    const bool small = size <= kSmallSize;
    Block* block = take_free_block(small, stream, size);
    if (block == nullptr) block = new_segment(small, stream, alloc_size);
    if (block == nullptr) {
      release_cached();
      ++stats.num_alloc_retries;
      block = new_segment(small, stream, alloc_size);
    }
    if (block == nullptr) out_of_memory(nbytes, alloc_size);
    return hand_out(block, size, nbytes);
  }

  Block* take_free_block(bool small, StreamId stream, size_t size) {
    FreeBlocks& free = pool(small);
    Block key(nullptr, size, stream, small);
    auto it = free.lower_bound(&key);
    if (it == free.end() || (*it)->stream != stream) return nullptr;
    Block* block = *it;
    free.erase(it);
    return block;
  }

  Block* new_segment(bool small, StreamId stream, size_t size) {
    auto block = std::make_unique<Block>(nullptr, size, stream, small);
    block->ptr = static_cast<char*>(source.raw_alloc(size));
    if (block->ptr == nullptr) return nullptr;
    increase(stats.segment, small, 1);
    increase(stats.reserved_bytes, small, size);
    ++stats.num_device_alloc;
    return block.release();
  }

  // Allocates the front `size` bytes of a block taken from a pool or a new segment.
  void* hand_out(Block* block, size_t size, size_t requested) {
    const bool small = block->small;
    const bool was_split = block->is_split();
    const size_t remaining = block->size - size;
    if (small ? remaining >= kMinBlockSize : remaining > kSmallSize) {
      auto* tail = new Block(block->ptr + size, remaining, block->stream, small);
      tail->prev = block;
      tail->next = block->next;
      if (tail->next != nullptr) tail->next->prev = tail;
      block->next = tail;
      block->size = size;
      pool(small).insert(tail);
      if (was_split) {
        decrease(stats.inactive_split_bytes, small, size);  // a free piece shrank
      } else {
        increase(stats.inactive_split, small, 1);  // a whole segment became pieces
        increase(stats.inactive_split_bytes, small, remaining);
      }
    } else if (was_split) {
      decrease(stats.inactive_split, small, 1);
      decrease(stats.inactive_split_bytes, small, block->size);
    }
    block->allocated = true;
    block->requested = requested;
    allocated.emplace(block->ptr, block);
    increase(stats.allocation, small, 1);
    increase(stats.allocated_bytes, small, block->size);
    increase(stats.active, small, 1);
    increase(stats.active_bytes, small, block->size);
    increase(stats.requested_bytes, small, requested);
    return block->ptr;
  }

  void deallocate(void* ptr) noexcept {
    auto it = allocated.find(ptr);
    EMBER_INTERNAL_ASSERT(it != allocated.end(), "freeing a pointer the allocator does not hold");
    Block* block = it->second;
    allocated.erase(it);
    block->allocated = false;
    decrease(stats.allocation, block->small, 1);
    decrease(stats.allocated_bytes, block->small, block->size);
    for (StreamId stream : block->stream_uses) {
      if (void* event = source.record_event(stream)) pending.add(stream, event, block);
    }
    block->stream_uses.clear();
    if (block->event_count == 0) free_block(block);
  }

  // Returns a block no stream uses any more to its pool, merged with its free neighbours.
  void free_block(Block* block) {
    const bool small = block->small;
    const size_t size = block->size;
    int64_t split_blocks = 0, split_bytes = 0;  // net change of inactive_split
    for (Block* neighbour : {block->prev, block->next}) {
      if (size_t merged = merge(block, neighbour)) {
        split_blocks -= 1;
        split_bytes -= static_cast<int64_t>(merged);
      }
    }
    pool(small).insert(block);
    if (block->is_split()) {
      split_blocks += 1;
      split_bytes += static_cast<int64_t>(block->size);
    }
    change(stats.inactive_split, small, split_blocks);
    change(stats.inactive_split_bytes, small, split_bytes);
    decrease(stats.active, small, 1);
    decrease(stats.active_bytes, small, size);
    decrease(stats.requested_bytes, small, block->requested);
    block->requested = 0;
    if (!caching) release_segment(block);  // uncached blocks are whole segments
  }

  // Absorbs `other` into `block` when it is a free neighbour; returns the bytes absorbed.
  size_t merge(Block* block, Block* other) {
    if (other == nullptr || other->allocated || other->event_count > 0) return 0;
    if (block->prev == other) {
      block->ptr = other->ptr;
      block->prev = other->prev;
      if (block->prev != nullptr) block->prev->next = block;
    } else {
      block->next = other->next;
      if (block->next != nullptr) block->next->prev = block;
    }
    block->size += other->size;
    pool(other->small).erase(other);
    const size_t merged = other->size;
    delete other;
    return merged;
  }

  // Frees the blocks whose events have all completed; with `wait`, waits for every event.
  void process_events(bool wait) {
    process_pending([&](void* event) {
      if (!wait) return source.query_event(event);
      source.synchronize_event(event);
      return true;
    });
  }

  void process_pending(auto done) {
    pending.process(
        done, [&](void* event) { source.release_event(event); },
        [&](Block* block) { free_block(block); });
  }

  void release_cached() {
    ++stats.num_sync_all_streams;
    process_events(/*wait=*/true);
    release_free_segments();
  }

  void release_free_segments() {
    for (FreeBlocks* free : {&small_pool, &large_pool}) {
      for (auto it = free->begin(); it != free->end();) {
        Block* block = *it++;
        if (!block->is_split()) release_segment(block);
      }
    }
  }

  void release_segment(Block* block) {
    pool(block->small).erase(block);
    source.raw_free(block->ptr);
    decrease(stats.segment, block->small, 1);
    decrease(stats.reserved_bytes, block->small, block->size);
    ++stats.num_device_free;
    delete block;
  }

  // PyTorch's message, which names the raw allocation that failed; the request follows when it
  // differs (a segment shared by smaller blocks, or rounding).
  [[noreturn]] void out_of_memory(size_t nbytes, size_t alloc_size) {
    const MemorySource::Capacity capacity = source.mem_get_info();
    ++stats.num_ooms;
    const auto allocated_bytes = static_cast<size_t>(stats.allocated_bytes.all.current);
    const auto reserved_bytes = static_cast<size_t>(stats.reserved_bytes.all.current);
    fail<OutOfMemoryError>(
        source.api_name(), " out of memory. Tried to allocate ", format_bytes(alloc_size),
        alloc_size == nbytes
            ? ""
            : ember::str(" (a segment for a request of ", format_bytes(nbytes), ")"),
        ". ", source.device_name(), " has a total capacity of ", format_bytes(capacity.total),
        " of which ", format_bytes(capacity.free), " is free. Of the allocated memory ",
        format_bytes(allocated_bytes), " is allocated by ember, and ",
        format_bytes(reserved_bytes - allocated_bytes),
        " is reserved by ember but unallocated. The cache has already been emptied for this "
        "request: free tensors that are no longer needed, or use smaller ones.");
  }

  ~Impl() {
    process_pending([](void*) { return true; });  // drops the events unasked
    release_free_segments();
    for (Block* block : small_pool) delete block;
    for (Block* block : large_pool) delete block;
    for (auto [ptr, block] : allocated) delete block;
  }
};

CachingAllocator::CachingAllocator(MemorySource& source, bool caching)
    : impl_(std::make_unique<Impl>(source, caching)) {}

CachingAllocator::~CachingAllocator() = default;

void* CachingAllocator::allocate(size_t nbytes, StreamId stream) {
  if (nbytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->allocate(nbytes, stream);
}

void CachingAllocator::deallocate(void* ptr, size_t /*nbytes*/) noexcept {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->deallocate(ptr);
}

void CachingAllocator::record_stream(void* ptr, StreamId stream) {
  if (ptr == nullptr) return;  // an empty storage has no block
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->allocated.find(ptr);
  EMBER_CHECK_T(ValueError, it != impl_->allocated.end(), "[record_stream] ", ptr,
                " is not the start of a live allocation of ", impl_->source.device_name());
  Block* block = it->second;
  // Uses on the allocating stream are ordered with the free already.
  if (stream != block->stream &&
      std::ranges::find(block->stream_uses, stream) == block->stream_uses.end())
    block->stream_uses.push_back(stream);
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->release_cached();
}

DeviceStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

void CachingAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  for_each_stat(impl_->stats, [](Stat& s) { s.peak = s.current; });
}

void CachingAllocator::reset_accumulated_stats() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  for_each_stat(impl_->stats, [](Stat& s) { s.allocated = s.freed = 0; });
  for (auto [name, counter] : kCounters) impl_->stats.*counter = 0;
}

void add_flat_stat(std::map<std::string, int64_t>& flat, const std::string& name,
                   const Stat& stat) {
  flat[name + ".current"] = stat.current;
  flat[name + ".peak"] = stat.peak;
  flat[name + ".allocated"] = stat.allocated;
  flat[name + ".freed"] = stat.freed;
}

std::map<std::string, int64_t> flatten_stats(const DeviceStats& stats) {
  std::map<std::string, int64_t> flat;
  for (auto [name, member] : kPoolStats)
    for (auto [pool, stat] : kPools)
      add_flat_stat(flat, ember::str(name, ".", pool), (stats.*member).*stat);
  for (auto [name, counter] : kCounters) flat[name] = stats.*counter;
  // ember splits every block (PyTorch's default, max_split_size unset: -1), so none is oversize.
  flat["max_split_size"] = -1;
  add_flat_stat(flat, "oversize_allocations", Stat{});
  add_flat_stat(flat, "oversize_segments", Stat{});
  return flat;
}

namespace {

// PyTorch's _format_size and _format_count: `value` in the unit that suits `reference` (the "all"
// row's value, so that a metric's rows share a unit), truncated like Python's //.
std::string scaled(int64_t value, double reference, int64_t base, double threshold,
                   std::initializer_list<const char*> units, int width) {
  auto unit = units.begin();
  while (unit + 1 != units.end() && reference >= threshold) {
    ++unit;
    value /= base;
    reference /= static_cast<double>(base);
  }
  char cell[64];
  std::snprintf(cell, sizeof cell, "%*lld %s", width, static_cast<long long>(value), *unit);
  return cell;
}

std::string size_cell(int64_t value, int64_t reference) {
  return scaled(value, static_cast<double>(reference), 1024, 768 * 1024,
                {"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"}, 6);
}

std::string count_cell(int64_t value, int64_t reference) {
  return scaled(value, static_cast<double>(reference), 1000, 750 * 1000, {" ", "K", "M"}, 7) + " ";
}

template <class... Args>
std::string line(const char* format, Args... args) {
  char text[128];
  std::snprintf(text, sizeof text, format, args...);
  return text;
}

}  // namespace

std::string format_memory_summary(const std::map<std::string, int64_t>& stats, int device,
                                  bool abbreviated) {
  auto get = [&](const std::string& key) {
    auto it = stats.find(key);
    return it == stats.end() ? int64_t{0} : it->second;
  };
  using Cell = std::string (*)(int64_t, int64_t);
  // A row of the four columns, scaled by the reference row's values.
  auto row = [&](const std::string& name, const std::string& key, const std::string& ref,
                 Cell cell) {
    auto column = [&](const char* c) { return cell(get(key + c), get(ref + c)); };
    return line(" %-21s | %s | %s | %s | %s ", name.c_str(), column(".current").c_str(),
                column(".peak").c_str(), column(".allocated").c_str(), column(".freed").c_str());
  };
  const std::string rule(75, '-'), double_rule(75, '=');
  std::vector<std::string> lines = {
      double_rule,
      line("%18sember CUDA memory summary, device ID %-19d ", "", device),
      rule,
      line("  %9s CUDA OOMs: %-12lld | %6s cudaMalloc retries: %-8lld  ", "",
           static_cast<long long>(get("num_ooms")), "",
           static_cast<long long>(get("num_alloc_retries"))),
      double_rule,
      "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ",
  };
  const std::tuple<const char*, const char*, Cell> metrics[] = {
      {"allocated_bytes", "Allocated memory", size_cell},
      {"active_bytes", "Active memory", size_cell},
      {"requested_bytes", "Requested memory", size_cell},
      {"reserved_bytes", "GPU reserved memory", size_cell},
      {"inactive_split_bytes", "Non-releasable memory", size_cell},
      {"allocation", "Allocations", count_cell},
      {"active", "Active allocs", count_cell},
      {"segment", "GPU reserved segments", count_cell},
      {"inactive_split", "Non-releasable allocs", count_cell},
  };
  for (auto [key, name, cell] : metrics) {
    const std::string all = ember::str(key, ".all");
    lines.push_back(rule);
    lines.push_back(row(name, all, all, cell));
    if (abbreviated) continue;
    lines.push_back(row("      from large pool", ember::str(key, ".large_pool"), all, cell));
    lines.push_back(row("      from small pool", ember::str(key, ".small_pool"), all, cell));
  }
  for (auto [key, name] : {std::pair{"oversize_allocations", "Oversize allocations"},
                           std::pair{"oversize_segments", "Oversize GPU segments"}}) {
    lines.push_back(rule);
    lines.push_back(row(name, key, key, count_cell));
  }
  lines.push_back(double_rule);
  std::string table;
  for (const std::string& l : lines) table += "|" + l + "|\n";
  return table;
}

}  // namespace ember::detail
