// The caching host allocator's policy on the CPU, against a fake source of page-locked memory
// whose raw allocations, failures and stream events the tests control: exact sizes, addresses,
// reuse and statistics.
#include "core/host_caching_allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/fake_memory.h"
#include "test_util.h"

namespace ember {
namespace {

using detail::HostCachingAllocator;
using detail::HostStats;
using test::byte_at;
using test::error_of;

const Stream kStream0 = Stream::unchecked(Device::cuda(0), 0);
const Stream kStream1 = Stream::unchecked(Device::cuda(0), 0x1000);
const Stream kOtherDevice0 = Stream::unchecked(Device::cuda(1), 0);  // same id, other device

// Page-locked memory of at most `capacity` bytes (test::FakeMemory), through the allocator's
// source interface.
class FakeHostSource final : public detail::HostMemorySource, public test::FakeMemory<Stream> {
 public:
  explicit FakeHostSource(size_t capacity = size_t{1} << 30) : FakeMemory(capacity) {}

  void* raw_alloc(size_t nbytes) override { return allocate_raw(nbytes); }
  void raw_free(void* ptr) noexcept override { free_raw(ptr); }
  void* record_event(const Stream& stream) noexcept override { return record(stream); }
  bool query_event(void* event) override { return is_done(event); }
  void release_event(void* event) noexcept override { release(event); }
};

TEST(HostCachingAllocator, RoundsEveryRequestUpToAPowerOfTwo) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  EXPECT_EQ(allocator.allocate(0), nullptr);
  std::vector<void*> blocks;
  for (size_t n : {1, 2, 3, 1000, 1024, 1025, 4096 + 1}) blocks.push_back(allocator.allocate(n));
  EXPECT_EQ(source.alloc_sizes, (std::vector<size_t>{1, 2, 4, 1024, 1024, 2048, 8192}));
  for (void* p : blocks) allocator.deallocate(p, 0);
}

TEST(HostCachingAllocator, ReusesAFreedBlockOfTheSameSizeClassOnly) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(1000);
  allocator.deallocate(a, 1000);
  EXPECT_EQ(allocator.allocate(513), a);    // 1024 bytes again: the cached block
  void* bigger = allocator.allocate(1500);  // 2048: a class of its own
  void* smaller = allocator.allocate(100);  // 128: never a slice of a bigger block
  EXPECT_NE(bigger, a);
  EXPECT_NE(smaller, a);
  EXPECT_EQ(source.alloc_sizes, (std::vector<size_t>{1024, 2048, 128}));
  EXPECT_EQ(source.frees, 0);
  for (void* p : {a, bigger, smaller}) allocator.deallocate(p, 0);
}

TEST(HostCachingAllocator, HandsOutTheMostRecentlyFreedBlockFirst) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(64);
  void* b = allocator.allocate(64);
  allocator.deallocate(a, 64);
  allocator.deallocate(b, 64);
  EXPECT_EQ(allocator.allocate(64), b);
  EXPECT_EQ(allocator.allocate(64), a);
  EXPECT_EQ(source.alloc_sizes.size(), 2u);
  allocator.deallocate(a, 64);
  allocator.deallocate(b, 64);
}

TEST(HostCachingAllocator, ABlockUsedByAStreamWaitsForItsEvent) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(4096);
  EXPECT_TRUE(allocator.record_stream(a, kStream1));
  EXPECT_TRUE(source.events.empty());  // recorded when freed, after all the work on the block
  allocator.deallocate(a, 4096);
  ASSERT_EQ(source.events.size(), 1u);
  EXPECT_EQ(source.events[0]->stream, kStream1);
  void* b = allocator.allocate(4096);  // the copy may still use `a`
  EXPECT_NE(b, a);
  allocator.deallocate(b, 4096);
  source.complete(kStream1);
  void* c = allocator.allocate(4096);  // polls the event: `a` is free again, and most recent
  EXPECT_EQ(c, a);
  EXPECT_TRUE(source.events[0]->released);
  EXPECT_EQ(source.alloc_sizes, (std::vector<size_t>{4096, 4096}));
  allocator.deallocate(c, 4096);
}

TEST(HostCachingAllocator, WaitsForEveryStreamThatUsedTheBlock) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(256);
  EXPECT_TRUE(allocator.record_stream(a, kStream0));
  EXPECT_TRUE(allocator.record_stream(byte_at(a, 100), kStream1));  // any address inside the block
  EXPECT_TRUE(allocator.record_stream(a, kStream1));                // once per stream
  EXPECT_TRUE(allocator.record_stream(a, kOtherDevice0));           // another device's stream 0
  allocator.deallocate(a, 256);
  EXPECT_EQ(source.events.size(), 3u);
  source.complete(kStream0);
  source.complete(kStream1);
  void* b = allocator.allocate(256);
  EXPECT_NE(b, a);  // cuda:1's default stream has not finished
  source.complete(kOtherDevice0);
  void* c = allocator.allocate(256);
  EXPECT_EQ(c, a);
  EXPECT_EQ(source.unreleased_events(), 0);
  allocator.deallocate(b, 256);
  allocator.deallocate(c, 256);
}

TEST(HostCachingAllocator, RecordingAStreamAgainAfterReuseStartsAfresh) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(64);
  allocator.record_stream(a, kStream1);
  allocator.deallocate(a, 64);
  source.complete(kStream1);
  void* b = allocator.allocate(64);
  ASSERT_EQ(b, a);
  allocator.deallocate(b, 64);  // no stream used it this time: reusable at once
  EXPECT_EQ(source.events.size(), 1u);
  EXPECT_EQ(allocator.allocate(64), a);
  allocator.deallocate(a, 64);
}

TEST(HostCachingAllocator, OwnsOnlyBlocksHandedOut) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(100);  // a block of 128 bytes
  int on_the_stack = 0;
  EXPECT_TRUE(allocator.owns(a));
  EXPECT_TRUE(allocator.owns(byte_at(a, 127)));
  EXPECT_FALSE(allocator.owns(byte_at(a, 128)));
  EXPECT_FALSE(allocator.owns(&on_the_stack));
  EXPECT_FALSE(allocator.owns(nullptr));
  EXPECT_FALSE(allocator.record_stream(&on_the_stack, kStream0));  // pageable: nothing recorded
  allocator.deallocate(a, 100);
  EXPECT_FALSE(allocator.owns(a));  // cached, not handed out
  EXPECT_FALSE(allocator.record_stream(a, kStream0));
}

TEST(HostCachingAllocator, CountsAsPyTorchsHostStats) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(1000);  // 1024
  void* b = allocator.allocate(3000);  // 4096
  HostStats s = allocator.stats();
  EXPECT_EQ(s.allocations.current, 2);
  EXPECT_EQ(s.allocated_bytes.current, 1024 + 4096);
  EXPECT_EQ(s.active_requests.current, 2);
  EXPECT_EQ(s.active_bytes.current, 1024 + 4096);
  EXPECT_EQ(s.num_host_alloc, 2);
  allocator.record_stream(b, kStream0);
  allocator.deallocate(a, 1000);
  allocator.deallocate(b, 3000);
  s = allocator.stats();
  EXPECT_EQ(s.allocations.current, 2);      // both cached
  EXPECT_EQ(s.active_requests.current, 1);  // b still waits for its event
  EXPECT_EQ(s.active_bytes.current, 4096);
  EXPECT_EQ(s.active_bytes.peak, 1024 + 4096);
  source.complete(kStream0);
  void* c = allocator.allocate(700);  // a again
  EXPECT_EQ(c, a);
  s = allocator.stats();
  EXPECT_EQ(s.active_requests.current, 1);
  EXPECT_EQ(s.active_requests.allocated, 3);
  EXPECT_EQ(s.active_requests.freed, 2);
  EXPECT_EQ(s.num_host_alloc, 2);
  allocator.deallocate(c, 700);
  allocator.empty_cache();
  s = allocator.stats();
  EXPECT_EQ(s.allocations.current, 0);
  EXPECT_EQ(s.allocations.peak, 2);
  EXPECT_EQ(s.allocated_bytes.current, 0);
  EXPECT_EQ(s.allocated_bytes.freed, 1024 + 4096);
  EXPECT_EQ(s.num_host_free, 2);
  EXPECT_EQ(source.frees, 2);
  const auto flat = detail::flatten_host_stats(s);
  EXPECT_EQ(flat.size(), 4u * 4u + 2u);
  EXPECT_EQ(flat.at("allocations.peak"), 2);
  EXPECT_EQ(flat.at("allocated_bytes.freed"), 1024 + 4096);
  EXPECT_EQ(flat.at("active_requests.allocated"), 3);
  EXPECT_EQ(flat.at("active_bytes.current"), 0);
  EXPECT_EQ(flat.at("num_host_alloc"), 2);
  EXPECT_EQ(flat.at("num_host_free"), 2);
}

TEST(HostCachingAllocator, EmptyCacheKeepsBlocksInUseOrWaiting) {
  FakeHostSource source;
  HostCachingAllocator allocator(source);
  void* live = allocator.allocate(64);
  void* waiting = allocator.allocate(128);
  void* cached = allocator.allocate(256);
  allocator.record_stream(waiting, kStream1);
  allocator.deallocate(waiting, 128);
  allocator.deallocate(cached, 256);
  allocator.empty_cache();
  EXPECT_EQ(source.frees, 1);  // only `cached`
  EXPECT_EQ(source.in_use(), 64u + 128u);
  source.complete(kStream1);
  allocator.empty_cache();  // the event has completed: `waiting` goes too
  EXPECT_EQ(source.in_use(), 64u);
  EXPECT_TRUE(allocator.owns(live));
  allocator.deallocate(live, 64);
}

TEST(HostCachingAllocator, OutOfMemoryReleasesTheCacheAndRetriesOnce) {
  FakeHostSource source(/*capacity=*/4096);
  HostCachingAllocator allocator(source);
  void* a = allocator.allocate(2048);
  allocator.deallocate(a, 2048);       // cached
  void* b = allocator.allocate(4096);  // fits only once `a` is released
  EXPECT_EQ(source.failed_allocs, 1);
  EXPECT_EQ(source.frees, 1);
  EXPECT_EQ(allocator.stats().allocated_bytes.current, 4096);
  const std::string message = error_of<OutOfMemoryError>([&] { (void)allocator.allocate(3000); });
  EXPECT_EQ(message,
            "[ember] out of page-locked (pinned) host memory: tried to allocate 4.00 KiB for a "
            "request of 2.93 KiB after releasing the cached blocks; ember holds 4.00 KiB of it, "
            "4.00 KiB in use. Free pinned tensors, or copy ordinary tensors (non_blocking=false).");
  EXPECT_EQ(source.failed_allocs, 3);  // tried, released the (empty) cache, tried again
  allocator.deallocate(b, 4096);
  EXPECT_NE(allocator.allocate(3000), nullptr);  // the failure is not sticky
}

TEST(HostCachingAllocator, DestructionReturnsCachedAndWaitingBlocks) {
  FakeHostSource source;
  void* live = nullptr;
  {
    HostCachingAllocator allocator(source);
    live = allocator.allocate(64);
    void* waiting = allocator.allocate(64);
    void* cached = allocator.allocate(64);
    allocator.record_stream(waiting, kStream0);
    allocator.deallocate(waiting, 64);
    allocator.deallocate(cached, 64);
  }
  EXPECT_EQ(source.frees, 2);
  EXPECT_EQ(source.unreleased_events(), 0);
  EXPECT_EQ(source.in_use(), 64u);  // the block still in use stays with the source
  source.raw_free(live);
}

}  // namespace
}  // namespace ember
