// The kernel-error record of Note [Index errors found by GPU kernels] (src/cuda/kernel_error.h)
// driven from the host as GPU threads drive it: one report per generation is kept, the host takes
// it once, the next generation can report again, and the raised message is the op's own.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuda/kernel_error.h"
#include "test_util.h"

namespace ember {
namespace {

using cuda::KernelErrorRecord;
using cuda::make_kernel_error_slot;
using cuda::take_kernel_error;
using test::error_of;

struct Taken {
  kernels::IndexBounds bounds{};
  int64_t value = 0;
};

std::optional<Taken> take(KernelErrorRecord& record) {
  Taken t;
  if (!take_kernel_error(record, t.bounds, t.value)) return std::nullopt;
  return t;
}

TEST(KernelErrorEmulated, FirstReportOfAGenerationIsTakenOnce) {
  unsigned long long claimed = 0;
  KernelErrorRecord record{};
  EXPECT_FALSE(take(record));
  const auto gather =
      make_kernel_error_slot(&claimed, &record, 1, kernels::bounds_of("gather", 0, 3));
  gather.report(7);
  gather.report(-1);  // a second bad element of the same launch
  std::optional<Taken> first = take(record);
  ASSERT_TRUE(first);
  EXPECT_STREQ(first->bounds.op, "gather");
  EXPECT_EQ(first->bounds.dim, 0);
  EXPECT_EQ(first->bounds.size, 3);
  EXPECT_EQ(first->value, 7);
  EXPECT_FALSE(take(record));  // raised once
  // A launch of the same generation, queued before the host took the report, stays quiet.
  gather.report(9);
  EXPECT_FALSE(take(record));
  // The next generation reports again, with its own bounds.
  const auto scatter =
      make_kernel_error_slot(&claimed, &record, 2, kernels::bounds_of("scatter_add", 1, 4));
  scatter.report(-2);
  std::optional<Taken> second = take(record);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->value, -2);
  EXPECT_EQ(error_of<IndexError>([&] {
              kernels::raise_out_of_bounds(second->bounds, second->value, " (found by a kernel)");
            }),
            "[scatter_add] index -2 is out of bounds for dimension 1 with size 4 (found by a "
            "kernel)");
}

// The raiser travels with the record, so an op's own error type and words come back.
[[noreturn]] void target_error(const kernels::IndexBounds& bounds, int64_t value,
                               const char* note) {
  throw ValueError("[" + std::string(bounds.op) + "] Target " + std::to_string(value) + " of " +
                   std::to_string(bounds.size) + note);
}

TEST(KernelErrorEmulated, TheOpsOwnRaiserComesBack) {
  unsigned long long claimed = 0;
  KernelErrorRecord record{};
  make_kernel_error_slot(&claimed, &record, 5, {"nll_loss", 1, 10, &target_error}).report(12);
  std::optional<Taken> got = take(record);
  ASSERT_TRUE(got);
  EXPECT_EQ(error_of<ValueError>([&] { kernels::raise_out_of_bounds(got->bounds, got->value); }),
            "[nll_loss] Target 12 of 10");
}

// Many threads racing to report, as a kernel's threads do: exactly one value is recorded, and it
// is one of theirs.
TEST(KernelErrorEmulated, RacingReportsLeaveOneWholeRecord) {
  unsigned long long claimed = 0;
  KernelErrorRecord record{};
  const auto slot =
      make_kernel_error_slot(&claimed, &record, 3, kernels::bounds_of("gather", 2, 5));
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&slot, t] {
      for (int i = 0; i < 1000; ++i) slot.report(100 + t);
    });
  for (std::thread& t : threads) t.join();
  std::optional<Taken> got = take(record);
  ASSERT_TRUE(got);
  EXPECT_GE(got->value, 100);
  EXPECT_LT(got->value, 108);
  EXPECT_EQ(got->bounds.dim, 2);
  EXPECT_EQ(got->bounds.size, 5);
  EXPECT_EQ(claimed, 3u);
  EXPECT_FALSE(take(record));
}

}  // namespace
}  // namespace ember
