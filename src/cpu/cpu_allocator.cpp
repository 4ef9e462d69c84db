// CPU allocator with a bounded cache of large blocks.
#include "cpu/cpu_allocator.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/check.h"
#include "core/format_bytes.h"

namespace ember::cpu {
namespace {

// Note [Reusing large host blocks]
// glibc serves blocks above its mmap threshold with fresh pages, so an op producing a 64 MiB
// output would fault in 16k pages every call (the LibTorch anchor loses ~3x on W2 this way).
// Blocks of at least kMinCached bytes are therefore kept after free, up to kCacheLimit bytes in
// all, and handed out again to requests they fit without wasting more than a quarter.
// kMinCached sits below glibc's default mmap threshold (128 KiB): W10's activations, pooling
// indices and im2col buffers are 0.1 to 1 MiB, and with 1 MiB they faulted in about 60 pages
// per step (8453 faults in one ember-bench W10 run, 3637 now) and took 7.1 ms against 5.0.
constexpr size_t kAlignment = 64;
constexpr size_t kSmall = 4096;                  // below: plain malloc (16-byte aligned, fastest)
constexpr size_t kMinCached = 1 << 16;           // 64 KiB
constexpr size_t kCacheLimit = size_t{1} << 30;  // 1 GiB
// Blocks under 1 MiB may hold at most this much of the cache, so that a peak of many small
// blocks cannot fill it for good and leave no room for the large ones.
constexpr size_t kSmallBlock = size_t{1} << 20;
constexpr size_t kSmallCacheLimit = size_t{128} << 20;

// Note [Huge pages for large host blocks]
// Blocks of at least kHugePage bytes are aligned to it and advised MADV_HUGEPAGE (what PyTorch
// does behind THP_MEM_ALLOC_ENABLE=1): one TLB entry then maps 512 times more memory and the
// hardware prefetchers are not stopped at every 4 KiB boundary, so a sum over 64 MiB reads about
// 10 % faster here (W3). Faulting in a huge page zeroes 2 MiB at once, a cost paid once per block
// since large blocks are cached. Kernels with transparent huge pages off ignore the advice.
constexpr size_t kHugePage = size_t{2} << 20;

class CpuAllocator final : public detail::Allocator {
 public:
  void* allocate(size_t nbytes) override {
    if (nbytes == 0) return nullptr;
    if (nbytes < kSmall) {
      void* p = std::malloc(nbytes);
      if (p) return p;
    } else {
      if (nbytes >= kMinCached) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = cache_.lower_bound(nbytes);
        if (it != cache_.end() && it->first <= nbytes + nbytes / 4) {
          void* p = it->second;
          cached_bytes_ -= it->first;
          if (it->first < kSmallBlock) cached_small_bytes_ -= it->first;
          sizes_[p] = it->first;
          cache_.erase(it);
          return p;
        }
      }
      void* p = raw_alloc(nbytes);
      if (!p) {  // give the cache back and retry once before failing
        empty_cache();
        p = raw_alloc(nbytes);
      }
      if (p) {
        if (nbytes >= kMinCached) {
          std::lock_guard<std::mutex> lock(mutex_);
          sizes_[p] = nbytes;
        }
        return p;
      }
    }
    detail::fail<OutOfMemoryError>("[ember] CPU out of memory: tried to allocate ",
                                   detail::format_bytes(nbytes), " (", nbytes,
                                   " bytes). Free some tensors or use smaller shapes.");
  }

  void deallocate(void* p, size_t nbytes) noexcept override {
    if (!p) return;
    if (nbytes >= kMinCached) {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = sizes_.find(p);
      size_t real = it != sizes_.end() ? it->second : nbytes;
      if (it != sizes_.end()) sizes_.erase(it);
      const bool small = real < kSmallBlock;
      if (cached_bytes_ + real <= kCacheLimit &&
          (!small || cached_small_bytes_ + real <= kSmallCacheLimit)) {
        cache_.emplace(real, p);
        cached_bytes_ += real;
        if (small) cached_small_bytes_ += real;
        return;
      }
    }
    std::free(p);
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [size, p] : cache_) std::free(p);
    cache_.clear();
    cached_bytes_ = 0;
    cached_small_bytes_ = 0;
  }

 private:
  static void* raw_alloc(size_t nbytes) {
    const bool huge = nbytes >= kHugePage;
    void* p = nullptr;
    if (posix_memalign(&p, huge ? kHugePage : kAlignment, nbytes) != 0) return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) madvise(p, nbytes, MADV_HUGEPAGE);  // advice only: a failure changes nothing
#endif
    return p;
  }

  std::mutex mutex_;
  std::multimap<size_t, void*> cache_;  // free blocks by real size
  std::map<void*, size_t> sizes_;       // real size of each live cached-size block
  size_t cached_bytes_ = 0;
  size_t cached_small_bytes_ = 0;  // of cached_bytes_, in blocks under kSmallBlock
};

CpuAllocator& instance() {
  static CpuAllocator* a = new CpuAllocator();  // leaked: frees may run during exit
  return *a;
}

}  // namespace

detail::Allocator& cpu_allocator() { return instance(); }
void empty_cpu_cache() { instance().empty_cache(); }

}  // namespace ember::cpu
