// ember::cuda's memory API: the caching allocator on a real GPU (skipped visibly without one), and
// PyTorch's answers before CUDA is initialised in every build without one. The policy itself is
// tested exactly on the CPU (tests/core/caching_allocator_test.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

bool caching_disabled() {
  for (const char* name : {"PYTORCH_NO_CUDA_MEMORY_CACHING", "EMBER_NO_CUDA_MEMORY_CACHING"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && std::string_view(value) == "1") return true;
  }
  return false;
}

#define EMBER_SKIP_IF_NO_CACHE()                                                      \
  do {                                                                                \
    if (caching_disabled()) GTEST_SKIP() << "the CUDA memory cache is disabled here"; \
  } while (0)

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(CudaMemory, WithoutGpuStatisticsAreZeroAndEmpty) {
  if (cuda::is_available()) GTEST_SKIP() << "a GPU is usable; see the tests below";
  EXPECT_EQ(cuda::memory_allocated(), 0);
  EXPECT_EQ(cuda::max_memory_allocated(0), 0);
  EXPECT_EQ(cuda::memory_reserved(), 0);
  EXPECT_EQ(cuda::max_memory_reserved(3), 0);
  EXPECT_TRUE(cuda::memory_stats().empty());
  EXPECT_NO_THROW(cuda::empty_cache());
  EXPECT_NO_THROW(cuda::reset_peak_memory_stats());
  EXPECT_NO_THROW(cuda::reset_accumulated_memory_stats(0));
  // A summary names its device, so it needs one.
  std::string msg = error_of<Error>([] { (void)cuda::memory_summary(); });
  if (cuda::built_with_cuda()) {
    EXPECT_EQ(msg.rfind("No CUDA GPUs are available: ", 0), 0u) << msg;
  } else {
    EXPECT_NE(msg.find("built without CUDA support"), std::string::npos) << msg;
  }
}

TEST(CudaMemory, AllocatedGrowsByTheRoundedSize) {
  EMBER_SKIP_IF_NO_CUDA();
  EMBER_SKIP_IF_NO_CACHE();
  const int64_t before = cuda::memory_allocated(0);
  {
    Tensor t = empty({1000}, Device::cuda(0));  // 4000 bytes, rounded to 4096
    EXPECT_EQ(cuda::memory_allocated(0), before + 4096);
    EXPECT_GE(cuda::memory_reserved(0), cuda::memory_allocated(0));
    EXPECT_GE(cuda::max_memory_allocated(0), before + 4096);
    const auto stats = cuda::memory_stats(0);
    EXPECT_EQ(stats.at("allocated_bytes.all.current"),
              stats.at("allocated_bytes.small_pool.current") +
                  stats.at("allocated_bytes.large_pool.current"));
    cuda::DeviceGuard guard(0);
    EXPECT_EQ(cuda::memory_allocated(), cuda::memory_allocated(0));  // -1: the current device
  }
  EXPECT_EQ(cuda::memory_allocated(0), before);
}

TEST(CudaMemory, FreedMemoryStaysReservedUntilEmptyCache) {
  EMBER_SKIP_IF_NO_CUDA();
  EMBER_SKIP_IF_NO_CACHE();
  cuda::empty_cache();
  const int64_t reserved = cuda::memory_reserved(0);
  int64_t with_tensor = 0;
  {
    Tensor t = empty({16 * kMiB}, Device::cuda(0));  // 64 MiB: a segment of its own
    with_tensor = cuda::memory_reserved(0);
    EXPECT_EQ(with_tensor, reserved + 64 * kMiB);
  }
  EXPECT_EQ(cuda::memory_reserved(0), with_tensor);  // cached for the next tensor
  {
    Tensor again = empty({16 * kMiB}, Device::cuda(0));
    EXPECT_EQ(cuda::memory_reserved(0), with_tensor);  // no new cudaMalloc
  }
  cuda::empty_cache();
  EXPECT_EQ(cuda::memory_reserved(0), reserved);
}

TEST(CudaMemory, EmptyCacheLeavesLiveTensorsAlone) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor x = tensor({1.5f, -2.f, 3.25f}).to("cuda:0");
  const int64_t allocated = cuda::memory_allocated(0);
  { Tensor dropped = empty({4 * kMiB}, Device::cuda(0)); }
  cuda::empty_cache();
  EXPECT_EQ(cuda::memory_allocated(0), allocated);
  EXPECT_GE(cuda::memory_reserved(0), allocated);
  expect_values<float>(x.cpu(), {3}, {1.5f, -2.f, 3.25f});
}

TEST(CudaMemory, PeaksFollowResets) {
  EMBER_SKIP_IF_NO_CUDA();
  cuda::reset_peak_memory_stats(0);
  const int64_t base = cuda::memory_allocated(0);
  EXPECT_EQ(cuda::max_memory_allocated(0), base);
  EXPECT_EQ(cuda::max_memory_reserved(0), cuda::memory_reserved(0));
  { Tensor t = empty({kMiB}, Device::cuda(0)); }  // 4 MiB, a multiple of every rounding
  EXPECT_EQ(cuda::max_memory_allocated(0), base + 4 * kMiB);
  EXPECT_GE(cuda::max_memory_reserved(0), cuda::memory_reserved(0));
  EXPECT_EQ(cuda::memory_allocated(0), base);
  cuda::reset_peak_memory_stats(0);
  EXPECT_EQ(cuda::max_memory_allocated(0), base);
  cuda::reset_accumulated_memory_stats(0);
  EXPECT_EQ(cuda::memory_stats(0).at("allocated_bytes.all.allocated"), 0);
}

TEST(CudaMemory, OutOfMemoryIsReportedAndNotSticky) {
  EMBER_SKIP_IF_NO_CUDA();
  const int64_t ooms = cuda::memory_stats(0).at("num_ooms");
  // 2^42 float32 = 16 TiB: more than any GPU has.
  std::string msg =
      error_of<OutOfMemoryError>([] { (void)empty({int64_t{1} << 42}, Device::cuda(0)); });
  EXPECT_EQ(msg.rfind("CUDA out of memory. Tried to allocate 16.00 TiB. GPU 0 has a total "
                      "capacity of ",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find(" is allocated by ember, and "), std::string::npos) << msg;
  EXPECT_NE(msg.find(" is reserved by ember but unallocated."), std::string::npos) << msg;
  const auto stats = cuda::memory_stats(0);
  EXPECT_EQ(stats.at("num_ooms"), ooms + 1);
  EXPECT_GE(stats.at("num_alloc_retries"), 1);
  // The failure is not sticky: the next allocation works.
  expect_values<float>(tensor({2.f}).to("cuda:0").cpu(), {1}, {2.f});
}

TEST(CudaMemory, StatsAndSummaryUsePyTorchsNames) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor t = empty({1000}, Device::cuda(0));
  const auto stats = cuda::memory_stats(0);
  EXPECT_EQ(stats.size(), 122u);
  EXPECT_EQ(stats.at("allocated_bytes.all.current"), cuda::memory_allocated(0));
  EXPECT_EQ(stats.at("reserved_bytes.all.peak"), cuda::max_memory_reserved(0));
  EXPECT_GE(stats.at("segment.all.current"), 1);
  EXPECT_EQ(stats.at("max_split_size"), -1);
  const std::string summary = cuda::memory_summary(0);
  EXPECT_EQ(summary.rfind("|=====", 0), 0u) << summary;
  EXPECT_NE(summary.find("ember CUDA memory summary, device ID 0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("from small pool"), std::string::npos) << summary;
  EXPECT_EQ(cuda::memory_summary(0, /*abbreviated=*/true).find("from small pool"),
            std::string::npos);
}

TEST(CudaMemory, EachDeviceHasItsOwnAllocator) {
  EMBER_SKIP_IF_NO_CUDA();
  const int n = cuda::device_count();
  std::string msg = error_of<CudaError>([n] { (void)cuda::memory_allocated(n); });
  EXPECT_NE(msg.find("invalid device ordinal"), std::string::npos) << msg;
  if (n < 2) GTEST_SKIP() << "needs two GPUs";
  const int64_t on0 = cuda::memory_allocated(0), on1 = cuda::memory_allocated(1);
  Tensor t = empty({kMiB}, Device::cuda(1));
  EXPECT_EQ(cuda::memory_allocated(1), on1 + 4 * kMiB);
  EXPECT_EQ(cuda::memory_allocated(0), on0);
}

// The driver's figure (NVML) counts every process on the GPU, so while this one holds a GiB it is
// at least what ember has reserved there plus the context; other tests running beside only add
// to it. Matching devices by PCI bus id is what makes cuda:i's figure that GPU's. NVML comes with
// the driver, not the toolkit: where libnvidia-ml.so.1 is missing or unusable (a container given
// only the compute capability), or the GPU is split into MIG instances, the error says why and
// the test skips with it.
TEST(CudaMemory, DeviceMemoryUsedCountsWhatEmberHolds) {
  EMBER_SKIP_IF_NO_CUDA();
  for (int i = 0; i < cuda::device_count(); ++i) {
    SCOPED_TRACE("cuda:" + std::to_string(i));
    Tensor t = empty({256 * kMiB}, Device::cuda(i));  // 1 GiB of float32
    int64_t used = 0;
    try {
      used = cuda::device_memory_used(i);
    } catch (const Error& e) {
      const std::string_view why = e.what();
      if (why.find("through NVML, but") == std::string_view::npos &&
          why.find("MIG instances") == std::string_view::npos)
        throw;
      GTEST_SKIP() << why;
    }
    EXPECT_GT(used, cuda::memory_reserved(i));
    EXPECT_GE(cuda::memory_reserved(i), 1024 * kMiB);
    // NVML's total also counts memory the driver keeps for itself, beyond totalGlobalMem.
    const auto total = static_cast<int64_t>(cuda::get_device_properties(i).total_memory);
    EXPECT_LE(used, total + 1024 * kMiB);
  }
  EXPECT_GT(cuda::device_memory_used(), 0);  // the current device's
}

// Runs when the whole suite is run with EMBER_NO_CUDA_MEMORY_CACHING=1 (Note [Disabling the CUDA
// cache]): each tensor is then a cudaMalloc of its exact size, returned when it dies.
TEST(CudaMemory, WithoutCacheAllocationsAreExact) {
  EMBER_SKIP_IF_NO_CUDA();
  if (!caching_disabled()) GTEST_SKIP() << "run with EMBER_NO_CUDA_MEMORY_CACHING=1";
  const int64_t allocated = cuda::memory_allocated(0), reserved = cuda::memory_reserved(0);
  {
    Tensor t = empty({1000}, Device::cuda(0));
    EXPECT_EQ(cuda::memory_allocated(0), allocated + 4000);
    EXPECT_EQ(cuda::memory_reserved(0), reserved + 4000);
  }
  EXPECT_EQ(cuda::memory_reserved(0), reserved);
}

}  // namespace
}  // namespace ember
