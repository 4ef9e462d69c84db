// The caching allocator's policy on the CPU, against a fake device whose raw allocations, failures
// and stream events the tests control: exact segment sizes, addresses, statistics and messages.
#include "core/caching_allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/fake_memory.h"
#include "test_util.h"

namespace ember {
namespace {

using detail::CachingAllocator;
using detail::DeviceStats;
using detail::StreamId;
using test::byte_at;
using test::error_of;

constexpr size_t kMiB = size_t{1} << 20;

// A device of `capacity` bytes (test::FakeMemory), through the allocator's source interface.
class FakeSource final : public detail::MemorySource, public test::FakeMemory<StreamId> {
 public:
  explicit FakeSource(size_t capacity = size_t{1} << 30) : FakeMemory(capacity) {}

  void* raw_alloc(size_t nbytes) override { return allocate_raw(nbytes); }
  void raw_free(void* ptr) noexcept override { free_raw(ptr); }
  void* record_event(StreamId stream) noexcept override { return record(stream); }
  bool query_event(void* event) override { return is_done(event); }
  void synchronize_event(void* event) override {
    ++synchronizations;
    finish(event);
  }
  void release_event(void* event) noexcept override { release(event); }
  Capacity mem_get_info() override { return {capacity() - in_use(), capacity()}; }
  std::string api_name() const override { return "CUDA"; }
  std::string device_name() const override { return "GPU 3"; }

  int synchronizations = 0;
};

// The raw allocation that a first request of nbytes makes.
size_t segment_for(size_t nbytes) {
  FakeSource source;
  CachingAllocator allocator(source);
  allocator.deallocate(allocator.allocate(nbytes), nbytes);
  EXPECT_EQ(source.alloc_sizes.size(), 1u);
  return source.alloc_sizes.at(0);
}

TEST(CachingAllocator, RoundsEveryRequestUpTo512Bytes) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1);
  void* b = allocator.allocate(512);
  void* c = allocator.allocate(513);
  // One small segment, carved in address order.
  EXPECT_EQ(b, byte_at(a, 512));
  EXPECT_EQ(c, byte_at(a, 1024));
  EXPECT_EQ(source.alloc_sizes, std::vector<size_t>{2 * kMiB});
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.allocated_bytes.all.current, 512 + 512 + 1024);
  EXPECT_EQ(s.requested_bytes.all.current, 1 + 512 + 513);
  EXPECT_EQ(s.reserved_bytes.all.current, static_cast<int64_t>(2 * kMiB));
  for (void* p : {a, b, c}) allocator.deallocate(p, 0);
}

TEST(CachingAllocator, SegmentSizesFollowTheRequest) {
  EXPECT_EQ(segment_for(1), 2 * kMiB);  // small pool: up to 1 MiB
  EXPECT_EQ(segment_for(kMiB), 2 * kMiB);
  EXPECT_EQ(segment_for(kMiB + 1), 20 * kMiB);  // large pool, under 10 MiB
  EXPECT_EQ(segment_for(10 * kMiB - 512), 20 * kMiB);
  EXPECT_EQ(segment_for(10 * kMiB), 10 * kMiB);  // from 10 MiB: rounded up to 2 MiB
  EXPECT_EQ(segment_for(11 * kMiB), 12 * kMiB);
  EXPECT_EQ(segment_for(12 * kMiB + 1), 14 * kMiB);
}

TEST(CachingAllocator, PoolsAreCountedApart) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* small = allocator.allocate(kMiB);
  void* large = allocator.allocate(kMiB + 1);
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.segment.small_pool.current, 1);
  EXPECT_EQ(s.segment.large_pool.current, 1);
  EXPECT_EQ(s.segment.all.current, 2);
  EXPECT_EQ(s.reserved_bytes.small_pool.current, static_cast<int64_t>(2 * kMiB));
  EXPECT_EQ(s.reserved_bytes.large_pool.current, static_cast<int64_t>(20 * kMiB));
  EXPECT_EQ(s.allocated_bytes.small_pool.current, static_cast<int64_t>(kMiB));
  EXPECT_EQ(s.allocated_bytes.large_pool.current, static_cast<int64_t>(kMiB + 512));
  allocator.deallocate(small, 0);
  allocator.deallocate(large, 0);
}

TEST(CachingAllocator, FreedBlocksAreReusedWithoutRawAllocation) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1000);
  allocator.deallocate(a, 1000);
  EXPECT_EQ(allocator.allocate(700), a);
  void* big = allocator.allocate(30 * kMiB);
  allocator.deallocate(big, 0);
  EXPECT_EQ(allocator.allocate(29 * kMiB), big);
  EXPECT_EQ(source.alloc_sizes.size(), 2u);
  EXPECT_EQ(source.frees, 0);
  allocator.deallocate(a, 0);
  allocator.deallocate(big, 0);
}

TEST(CachingAllocator, SplitsAndMergesNeighbours) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(512);
  void* b = allocator.allocate(1024);
  void* c = allocator.allocate(512);
  EXPECT_EQ(b, byte_at(a, 512));
  EXPECT_EQ(c, byte_at(a, 1536));
  const auto tail = static_cast<int64_t>(2 * kMiB - 2048);  // the free end of the segment
  EXPECT_EQ(allocator.stats().inactive_split_bytes.all.current, tail);

  allocator.deallocate(b, 0);  // between two live blocks: nothing to merge with
  EXPECT_EQ(allocator.stats().inactive_split.all.current, 2);
  EXPECT_EQ(allocator.allocate(1024), b);  // the hole fits exactly: best fit
  allocator.deallocate(b, 0);
  allocator.deallocate(a, 0);  // merges with b
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.inactive_split.all.current, 2);
  EXPECT_EQ(s.inactive_split_bytes.all.current, tail + 1536);
  EXPECT_EQ(allocator.allocate(1536), a);  // the merged block, not the larger tail
  allocator.deallocate(a, 0);

  allocator.deallocate(c, 0);  // merges with both sides: one whole segment again
  s = allocator.stats();
  EXPECT_EQ(s.inactive_split.all.current, 0);
  EXPECT_EQ(s.inactive_split_bytes.all.current, 0);
  EXPECT_EQ(s.inactive_split.all.peak, 2);
  EXPECT_EQ(s.inactive_split_bytes.all.peak, static_cast<int64_t>(2 * kMiB - 512));
  allocator.empty_cache();  // only an unsplit segment can be released
  EXPECT_EQ(source.frees, 1);
  EXPECT_EQ(source.live_segments(), 0u);
}

TEST(CachingAllocator, LargePoolSplitsOnlyRemaindersAboveOneMiB) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(5 * kMiB);
  void* b = allocator.allocate(5 * kMiB);
  void* c = allocator.allocate(9 * kMiB);  // leaves exactly 1 MiB: kept in the block
  EXPECT_EQ(b, byte_at(a, 5 * kMiB));
  EXPECT_EQ(c, byte_at(a, 10 * kMiB));
  EXPECT_EQ(source.alloc_sizes, std::vector<size_t>{20 * kMiB});
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.allocated_bytes.large_pool.current, static_cast<int64_t>(20 * kMiB));
  EXPECT_EQ(s.requested_bytes.large_pool.current, static_cast<int64_t>(19 * kMiB));
  EXPECT_EQ(s.inactive_split.all.current, 0);
  for (void* p : {a, b, c}) allocator.deallocate(p, 0);
}

TEST(CachingAllocator, BestFitPrefersTheSmallestBlockThenTheLowestAddress) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* x = allocator.allocate(14 * kMiB);
  void* y = allocator.allocate(12 * kMiB);
  allocator.deallocate(x, 0);
  allocator.deallocate(y, 0);
  EXPECT_EQ(allocator.allocate(11 * kMiB), y);
  EXPECT_EQ(allocator.allocate(11 * kMiB), x);
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(allocator.allocate(512));
  allocator.deallocate(blocks[2], 0);
  allocator.deallocate(blocks[0], 0);
  EXPECT_EQ(allocator.allocate(512), blocks[0]);
  EXPECT_EQ(source.alloc_sizes.size(), 3u);
  for (void* p : {x, y, blocks[0], blocks[1], blocks[3]}) allocator.deallocate(p, 0);
}

TEST(CachingAllocator, BlocksAreReusedOnlyOnTheirStream) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1000, 1);
  allocator.deallocate(a, 0);
  void* b = allocator.allocate(1000, 2);
  EXPECT_NE(b, a);
  EXPECT_EQ(source.alloc_sizes.size(), 2u);
  EXPECT_EQ(allocator.allocate(1000, 1), a);
  EXPECT_EQ(source.alloc_sizes.size(), 2u);
  // The default stream is one more stream.
  void* c = allocator.allocate(1000);
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  for (void* p : {a, b, c}) allocator.deallocate(p, 0);
}

TEST(CachingAllocator, RecordStreamDefersReuseUntilTheEventCompletes) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1000);
  allocator.record_stream(a, 7);
  allocator.record_stream(a, 7);  // once per stream
  allocator.record_stream(a, 0);  // the allocating stream needs no event
  allocator.deallocate(a, 1000);
  ASSERT_EQ(source.events.size(), 1u);
  EXPECT_EQ(source.events[0]->stream, 7u);
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.allocated_bytes.all.current, 0);
  EXPECT_EQ(s.active_bytes.all.current, 1024);  // still in use on stream 7
  EXPECT_EQ(s.active.all.current, 1);

  // Pending: neither reused nor merged, so the next block comes from the rest of the segment.
  void* b = allocator.allocate(1000);
  EXPECT_EQ(b, byte_at(a, 1024));
  source.complete(7);
  void* c = allocator.allocate(1000);  // the event is polled first
  EXPECT_EQ(c, a);
  EXPECT_TRUE(source.events[0]->released);
  EXPECT_EQ(source.alloc_sizes.size(), 1u);
  EXPECT_EQ(source.synchronizations, 0);
  allocator.deallocate(b, 0);
  allocator.deallocate(c, 0);
}

TEST(CachingAllocator, EmptyCacheWaitsForPendingFrees) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1000);
  allocator.record_stream(a, 7);
  allocator.deallocate(a, 0);
  allocator.empty_cache();
  EXPECT_EQ(source.synchronizations, 1);
  EXPECT_EQ(source.frees, 1);
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.active.all.current, 0);
  EXPECT_EQ(s.reserved_bytes.all.current, 0);
  EXPECT_EQ(s.num_sync_all_streams, 1);
}

TEST(CachingAllocator, OutOfMemoryEmptiesTheCacheAndRetriesOnce) {
  FakeSource source(21 * kMiB);
  CachingAllocator allocator(source);
  allocator.deallocate(allocator.allocate(1000), 0);  // caches a 2 MiB segment
  void* big = allocator.allocate(5 * kMiB);           // needs 20 MiB: fits once that is gone
  EXPECT_NE(big, nullptr);
  EXPECT_EQ(source.failed_allocs, 1);
  EXPECT_EQ(source.frees, 1);
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.num_ooms, 0);
  EXPECT_EQ(s.reserved_bytes.all.current, static_cast<int64_t>(20 * kMiB));
  allocator.deallocate(big, 0);
}

TEST(CachingAllocator, OutOfMemoryErrorReportsTheDeviceAndRecovers) {
  FakeSource source(21 * kMiB);
  CachingAllocator allocator(source);
  void* keep = allocator.allocate(1000);  // pins its 2 MiB segment
  std::string msg = error_of<OutOfMemoryError>([&] { (void)allocator.allocate(5 * kMiB); });
  EXPECT_EQ(
      msg,
      "CUDA out of memory. Tried to allocate 20.00 MiB (a segment for a request of 5.00 MiB). "
      "GPU 3 has a total capacity of 21.00 MiB of which 19.00 MiB is free. Of the allocated "
      "memory 1.00 KiB is allocated by ember, and 2.00 MiB is reserved by ember but "
      "unallocated. The cache has already been emptied for this request: free tensors that "
      "are no longer needed, or use smaller ones.");
  EXPECT_EQ(source.failed_allocs, 2);  // the attempt and its one retry
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.num_ooms, 1);
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.allocated_bytes.all.current, 1024);  // the failure changed nothing else

  // Once the program frees memory, the same request succeeds.
  allocator.deallocate(keep, 0);
  void* big = allocator.allocate(5 * kMiB);
  EXPECT_NE(big, nullptr);
  allocator.deallocate(big, 0);
  // A request beyond any device fails at once, without asking the source.
  msg = error_of<OutOfMemoryError>([&] { (void)allocator.allocate(size_t{1} << 62); });
  EXPECT_EQ(msg.rfind("CUDA out of memory. Tried to allocate 4.00 EiB. GPU 3 has", 0), 0u) << msg;
  EXPECT_EQ(source.failed_allocs, 3);
  EXPECT_EQ(allocator.stats().num_ooms, 2);
}

TEST(CachingAllocator, StatsTrackCurrentPeakAndTotals) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1000);      // 1024 B, small pool
  void* b = allocator.allocate(3 * kMiB);  // 3 MiB from a 20 MiB segment
  allocator.deallocate(a, 0);
  void* c = allocator.allocate(2000);  // 2048 B
  allocator.deallocate(b, 0);
  allocator.deallocate(c, 0);
  const auto mib3 = static_cast<int64_t>(3 * kMiB);
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.allocated_bytes.all.current, 0);
  EXPECT_EQ(s.allocated_bytes.all.peak, mib3 + 2048);
  EXPECT_EQ(s.allocated_bytes.all.allocated, mib3 + 3072);
  EXPECT_EQ(s.allocated_bytes.all.freed, mib3 + 3072);
  EXPECT_EQ(s.allocated_bytes.small_pool.peak, 2048);
  EXPECT_EQ(s.allocated_bytes.small_pool.allocated, 3072);
  EXPECT_EQ(s.allocated_bytes.large_pool.peak, mib3);
  EXPECT_EQ(s.requested_bytes.all.allocated, mib3 + 3000);
  EXPECT_EQ(s.allocation.all.current, 0);
  EXPECT_EQ(s.allocation.all.peak, 2);
  EXPECT_EQ(s.allocation.all.allocated, 3);
  EXPECT_EQ(s.allocation.all.freed, 3);
  EXPECT_EQ(s.reserved_bytes.all.current, static_cast<int64_t>(22 * kMiB));  // cached
  EXPECT_EQ(s.reserved_bytes.all.freed, 0);
  EXPECT_EQ(s.segment.all.current, 2);
  EXPECT_EQ(s.num_device_alloc, 2);

  allocator.reset_peak_stats();
  s = allocator.stats();
  EXPECT_EQ(s.allocated_bytes.all.peak, 0);
  EXPECT_EQ(s.reserved_bytes.all.peak, static_cast<int64_t>(22 * kMiB));
  allocator.deallocate(allocator.allocate(512), 0);
  EXPECT_EQ(allocator.stats().allocated_bytes.all.peak, 512);

  allocator.reset_accumulated_stats();
  s = allocator.stats();
  EXPECT_EQ(s.allocated_bytes.all.allocated, 0);
  EXPECT_EQ(s.allocated_bytes.all.freed, 0);
  EXPECT_EQ(s.num_device_alloc, 0);
  EXPECT_EQ(s.reserved_bytes.all.current, static_cast<int64_t>(22 * kMiB));
}

TEST(CachingAllocator, EmptyCacheLeavesLiveBlocksAlone) {
  FakeSource source;
  CachingAllocator allocator(source);
  auto* keep = static_cast<char*>(allocator.allocate(1000));
  keep[999] = 42;
  void* big = allocator.allocate(30 * kMiB);
  void* mid = allocator.allocate(2 * kMiB);
  allocator.deallocate(big, 0);
  allocator.deallocate(mid, 0);
  allocator.empty_cache();
  EXPECT_EQ(source.frees, 2);  // the two wholly free segments, not keep's
  EXPECT_EQ(source.live_segments(), 1u);
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.reserved_bytes.all.current, static_cast<int64_t>(2 * kMiB));
  EXPECT_EQ(s.allocated_bytes.all.current, 1024);
  EXPECT_EQ(s.num_device_free, 2);
  EXPECT_EQ(keep[999], 42);
  allocator.deallocate(keep, 0);
}

TEST(CachingAllocator, WithoutCachingEveryBlockIsItsOwnExactSegment) {
  FakeSource source;
  CachingAllocator allocator(source, /*caching=*/false);
  void* a = allocator.allocate(1000);
  void* b = allocator.allocate(1000);
  EXPECT_EQ(source.alloc_sizes, (std::vector<size_t>{1000, 1000}));
  EXPECT_EQ(allocator.stats().allocated_bytes.all.current, 2000);
  allocator.deallocate(a, 1000);
  EXPECT_EQ(source.frees, 1);  // at once
  EXPECT_EQ(allocator.stats().reserved_bytes.all.current, 1000);
  allocator.record_stream(b, 7);
  allocator.deallocate(b, 1000);
  EXPECT_EQ(source.frees, 1);  // after stream 7's work
  source.complete(7);
  allocator.deallocate(allocator.allocate(1), 1);
  EXPECT_EQ(source.frees, 3);
  EXPECT_EQ(allocator.stats().reserved_bytes.all.current, 0);
  // Rounded to whole 32-bit words, so that word-wide atomics on the last bytes stay inside.
  EXPECT_EQ(source.alloc_sizes.back(), 4u);
  allocator.deallocate(allocator.allocate(6), 6);
  EXPECT_EQ(source.alloc_sizes.back(), 8u);
}

TEST(CachingAllocator, EmptyRequestsAndForeignPointers) {
  FakeSource source;
  CachingAllocator allocator(source);
  EXPECT_EQ(allocator.allocate(0), nullptr);
  allocator.deallocate(nullptr, 0);
  allocator.record_stream(nullptr, 1);
  EXPECT_TRUE(source.alloc_sizes.empty());
  int local = 0;
  std::string msg = error_of<ValueError>([&] { allocator.record_stream(&local, 1); });
  EXPECT_NE(msg.find("[record_stream]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is not the start of a live allocation of GPU 3"), std::string::npos) << msg;
}

TEST(CachingAllocator, DestructionReturnsTheCache) {
  FakeSource source;
  {
    CachingAllocator allocator(source);
    allocator.deallocate(allocator.allocate(1000), 0);
    void* a = allocator.allocate(30 * kMiB);
    allocator.record_stream(a, 7);
    allocator.deallocate(a, 0);  // still pending: returned without waiting
  }
  EXPECT_EQ(source.live_segments(), 0u);
  EXPECT_EQ(source.synchronizations, 0);
  EXPECT_TRUE(source.events.at(0)->released);
}

TEST(CachingAllocator, ConcurrentUseKeepsTheBooksBalanced) {
  FakeSource source;
  CachingAllocator allocator(source);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&allocator, t] {
      std::vector<void*> held;
      for (int i = 0; i < 2000; ++i) {
        const size_t n = static_cast<size_t>((i * 7919 + t * 104729) % (3 * kMiB)) + 1;
        held.push_back(allocator.allocate(n, static_cast<StreamId>(t % 2)));
        if (held.size() > 8) {
          allocator.deallocate(held.front(), 0);
          held.erase(held.begin());
        }
      }
      for (void* p : held) allocator.deallocate(p, 0);
    });
  }
  for (std::thread& th : threads) th.join();
  DeviceStats s = allocator.stats();
  EXPECT_EQ(s.allocation.all.current, 0);
  EXPECT_EQ(s.allocated_bytes.all.current, 0);
  EXPECT_EQ(s.active_bytes.all.current, 0);
  EXPECT_EQ(s.inactive_split.all.current, 0);  // every segment merged back whole
  allocator.empty_cache();
  EXPECT_EQ(source.live_segments(), 0u);
  EXPECT_EQ(allocator.stats().reserved_bytes.all.current, 0);
}

// Random allocations, frees, cross-stream uses, event completions and cache flushes: after every
// step the books agree with the fake device, and live blocks are disjoint and inside segments.
TEST(CachingAllocator, RandomWorkloadKeepsItsInvariants) {
  FakeSource source(96 * kMiB);
  CachingAllocator allocator(source);
  std::map<char*, size_t> live;  // address -> rounded size
  uint64_t state = 12345;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (state >> 33) % n;
  };
  for (int step = 0; step < 3000; ++step) {
    const uint64_t action = next(10);
    if (action < 5 || live.empty()) {
      const size_t n = next(2) ? next(kMiB) + 1 : next(24 * kMiB) + 1;
      char* p = nullptr;
      try {
        p = static_cast<char*>(allocator.allocate(n, next(3)));
      } catch (const OutOfMemoryError&) {
        continue;
      }
      const size_t size = (n + 511) / 512 * 512;
      auto after = live.lower_bound(p);
      ASSERT_TRUE(after == live.end() || p + size <= after->first) << "step " << step;
      ASSERT_TRUE(after == live.begin() || std::prev(after)->first + std::prev(after)->second <= p)
          << "step " << step;
      ASSERT_TRUE(source.owns(p, size)) << "step " << step;
      live[p] = size;
    } else {
      auto it = std::next(live.begin(), static_cast<std::ptrdiff_t>(next(live.size())));
      if (action == 5) allocator.record_stream(it->first, 3 + next(2));
      allocator.deallocate(it->first, 0);
      live.erase(it);
      if (action == 6) source.complete(3 + next(2));
      if (action == 7 && next(10) == 0) allocator.empty_cache();
    }
    DeviceStats s = allocator.stats();
    ASSERT_EQ(s.reserved_bytes.all.current, static_cast<int64_t>(source.in_use())) << step;
    ASSERT_EQ(s.segment.all.current, static_cast<int64_t>(source.live_segments())) << step;
    ASSERT_EQ(s.allocation.all.current, static_cast<int64_t>(live.size())) << step;
    int64_t bytes = 0;
    for (auto [p, size] : live) bytes += static_cast<int64_t>(size);
    ASSERT_LE(s.allocated_bytes.all.current, s.active_bytes.all.current) << step;
    ASSERT_LE(s.active_bytes.all.current + s.inactive_split_bytes.all.current,
              s.reserved_bytes.all.current)
        << step;
    // A large block keeps a remainder of at most 1 MiB unsplit.
    ASSERT_GE(s.allocated_bytes.all.current, bytes) << step;
    ASSERT_LE(s.allocated_bytes.all.current, bytes + static_cast<int64_t>(live.size() * kMiB))
        << step;
  }
  // The workload reached every path: failed requests, retries that succeeded, deferred frees.
  DeviceStats s = allocator.stats();
  EXPECT_GT(s.num_ooms, 0);
  EXPECT_GT(s.num_alloc_retries, s.num_ooms);
  EXPECT_GT(source.events.size(), 0u);
  for (auto [p, size] : live) allocator.deallocate(p, 0);
  allocator.empty_cache();
  EXPECT_EQ(source.live_segments(), 0u);
  EXPECT_EQ(allocator.stats().active.all.current, 0);
}

TEST(CachingAllocator, FlatStatsUsePyTorchKeys) {
  FakeSource source;
  CachingAllocator allocator(source);
  void* a = allocator.allocate(1000);
  std::map<std::string, int64_t> flat = detail::flatten_stats(allocator.stats());
  // 9 statistics x 3 pools x 4 fields, 5 counters, max_split_size, 2 oversize statistics x 4.
  EXPECT_EQ(flat.size(), 9u * 3 * 4 + 5 + 1 + 2 * 4);
  EXPECT_EQ(flat.at("allocated_bytes.all.current"), 1024);
  EXPECT_EQ(flat.at("allocated_bytes.small_pool.peak"), 1024);
  EXPECT_EQ(flat.at("requested_bytes.all.current"), 1000);
  EXPECT_EQ(flat.at("reserved_bytes.all.current"), static_cast<int64_t>(2 * kMiB));
  EXPECT_EQ(flat.at("segment.large_pool.current"), 0);
  EXPECT_EQ(flat.at("allocation.all.allocated"), 1);
  EXPECT_EQ(flat.at("num_device_alloc"), 1);
  EXPECT_EQ(flat.at("num_ooms"), 0);
  EXPECT_EQ(flat.at("max_split_size"), -1);
  EXPECT_EQ(flat.at("oversize_allocations.current"), 0);
  allocator.deallocate(a, 0);
}

// torch.cuda.memory_summary's own code (torch/cuda/memory.py) run on the same statistics, with
// "PyTorch" read as "ember" and the device field widened by the two characters saved.
constexpr const char* kSummary =
    R"(|===========================================================================|
|                  ember CUDA memory summary, device ID 1                   |
|---------------------------------------------------------------------------|
|            CUDA OOMs: 3            |        cudaMalloc retries: 7         |
|===========================================================================|
|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |
|---------------------------------------------------------------------------|
| Allocated memory      |   1536 B   |   3074 KiB |  10240 MiB |  10239 MiB |
|       from large pool |      0 B   |   3072 KiB |  10239 MiB |  10239 MiB |
|       from small pool |   1536 B   |      2 KiB |      1 MiB |      0 MiB |
|---------------------------------------------------------------------------|
| Active memory         |      0 B   |      0 B   |      0 B   |      0 B   |
|       from large pool |      0 B   |      0 B   |      0 B   |      0 B   |
|       from small pool |      0 B   |      0 B   |      0 B   |      0 B   |
|---------------------------------------------------------------------------|
| Requested memory      |      0 B   |      0 B   |      0 B   |      0 B   |
|       from large pool |      0 B   |      0 B   |      0 B   |      0 B   |
|       from small pool |      0 B   |      0 B   |      0 B   |      0 B   |
|---------------------------------------------------------------------------|
| GPU reserved memory   |  22528 KiB |  22528 KiB |  22528 KiB |      0 B   |
|       from large pool |  20480 KiB |  20480 KiB |  20480 KiB |      0 B   |
|       from small pool |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |
|---------------------------------------------------------------------------|
| Non-releasable memory |      0 B   |      0 B   |      0 B   |      0 B   |
|       from large pool |      0 B   |      0 B   |      0 B   |      0 B   |
|       from small pool |      0 B   |      0 B   |      0 B   |      0 B   |
|---------------------------------------------------------------------------|
| Allocations           |       2    |       5    |    1234 K  |    1234 K  |
|       from large pool |       0    |       2    |    1233 K  |    1233 K  |
|       from small pool |       2    |       3    |       1 K  |       0 K  |
|---------------------------------------------------------------------------|
| Active allocs         |       0    |       0    |       0    |       0    |
|       from large pool |       0    |       0    |       0    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| GPU reserved segments |       0    |       0    |       0    |       0    |
|       from large pool |       0    |       0    |       0    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Non-releasable allocs |       0    |       0    |       0    |       0    |
|       from large pool |       0    |       0    |       0    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Oversize allocations  |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Oversize GPU segments |       0    |       0    |       0    |       0    |
|===========================================================================|
)";

std::map<std::string, int64_t> summary_stats() {
  DeviceStats s;
  s.allocated_bytes.all = {1536, 3147776, int64_t{10} << 30, (int64_t{10} << 30) - 1536};
  s.allocated_bytes.small_pool = {1536, 2048, 1 << 20, (1 << 20) - 1536};
  s.allocated_bytes.large_pool = {0, 3 << 20, (int64_t{10} << 30) - (1 << 20),
                                  (int64_t{10} << 30) - (1 << 20)};
  s.reserved_bytes.all = {22 << 20, 22 << 20, 22 << 20, 0};
  s.reserved_bytes.small_pool = {2 << 20, 2 << 20, 2 << 20, 0};
  s.reserved_bytes.large_pool = {20 << 20, 20 << 20, 20 << 20, 0};
  s.allocation.all = {2, 5, 1234567, 1234565};
  s.allocation.small_pool = {2, 3, 1000, 998};
  s.allocation.large_pool = {0, 2, 1233567, 1233567};
  s.num_ooms = 3;
  s.num_alloc_retries = 7;
  return detail::flatten_stats(s);
}

TEST(CachingAllocator, MemorySummaryHasPyTorchsLayout) {
  EXPECT_EQ(detail::format_memory_summary(summary_stats(), 1, /*abbreviated=*/false), kSummary);
}

TEST(CachingAllocator, AbbreviatedMemorySummaryDropsThePoolRows) {
  std::istringstream full(kSummary);
  std::string expected, row;
  while (std::getline(full, row))
    if (row.find(" from ") == std::string::npos) expected += row + "\n";
  EXPECT_EQ(detail::format_memory_summary(summary_stats(), 1, /*abbreviated=*/true), expected);
  // Missing keys read as zeros: the empty table of a device never used.
  std::string empty = detail::format_memory_summary({}, 0, false);
  EXPECT_NE(empty.find("| Allocated memory      |      0 B   |      0 B   |"), std::string::npos)
      << empty;
}

}  // namespace
}  // namespace ember
