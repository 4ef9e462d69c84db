// The CUDA random kernel's per-thread work (src/cuda/random_program.h) run on the host for every
// thread: after manual_seed, it must reproduce the CPU's rand, randn and randint tensors bit for
// bit, for every dtype, odd sizes (a thread with one element) and odd offsets (a draw that starts
// in the second half of a Philox counter's output).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cuda/random_program.h"
#include "ember/ember.h"

namespace ember {
namespace {

using kernels::RandomKind;

constexpr uint64_t kSeed = 20240611;

// random_kernels.cu's grid, one thread per Philox counter, run on the host.
Tensor emulate(IntArrayRef shape, ScalarType dtype, RandomKind kind, double a, double b,
               uint64_t offset) {
  Tensor out = empty(shape, dtype);
  const cuda::RandomArgs args{out.data_ptr(), out.numel(), kind, a, b, kSeed, offset};
  kernels::dispatch_dtype(dtype, "test", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t t = 0; t < cuda::random_threads(args); ++t) cuda::random_thread<T>(args, t);
  });
  return out;
}

void expect_same_bytes(const Tensor& emulated, const Tensor& cpu, const char* what) {
  ASSERT_EQ(emulated.sizes(), cpu.sizes()) << what;
  ASSERT_EQ(emulated.scalar_type(), cpu.scalar_type()) << what;
  EXPECT_EQ(std::memcmp(emulated.data_ptr(), cpu.contiguous().data_ptr(), cpu.nbytes()), 0)
      << what << " " << toString(cpu.scalar_type()) << " " << cpu.sizes() << "\nemulated "
      << emulated << "\ncpu " << cpu;
}

// Draws `first` elements, then the checked tensor, so the checked draw starts at offset `first`
// (odd offsets start mid-counter).
template <class Draw>
void check_draw(const char* what, ScalarType dtype, RandomKind kind, double a, double b,
                const Draw& draw) {
  for (int64_t first : {0, 1, 6, 7})
    for (std::vector<int64_t> shape : {std::vector<int64_t>{1}, {513}, {4, 129}, {0}}) {
      manual_seed(kSeed);
      if (first > 0) (void)draw({first});
      Tensor cpu = draw(shape);
      expect_same_bytes(emulate(shape, dtype, kind, a, b, static_cast<uint64_t>(first)), cpu, what);
    }
}

TEST(RandomEmulated, UniformEqualsCpu) {
  for (ScalarType t : {kFloat32, kFloat64, kFloat16, kBFloat16})
    check_draw("rand", t, RandomKind::Uniform, 0, 1,
               [&](IntArrayRef shape) { return rand(shape, t); });
}

TEST(RandomEmulated, NormalEqualsCpu) {
  for (ScalarType t : {kFloat32, kFloat64, kFloat16, kBFloat16})
    check_draw("randn", t, RandomKind::Normal, 0, 1,
               [&](IntArrayRef shape) { return randn(shape, t); });
}

TEST(RandomEmulated, IntegerEqualsCpu) {
  for (ScalarType t : {kInt64, kInt32, kInt16, kInt8, kUInt8, kFloat32, kFloat64})
    check_draw("randint", t, RandomKind::Integer, -7, 100,
               [&](IntArrayRef shape) { return randint(-7, 100, shape, t); });
  // A range beyond 32 bits uses all 64 random bits.
  check_draw("randint wide", kInt64, RandomKind::Integer, -(int64_t{1} << 40),
             static_cast<double>(int64_t{1} << 41), [](IntArrayRef shape) {
               return randint(-(int64_t{1} << 40), int64_t{1} << 41, shape, kInt64);
             });
}

// The thread plan: half as many threads as elements for the two-per-counter draws.
TEST(RandomEmulated, ThreadCounts) {
  cuda::RandomArgs args{nullptr, 7, RandomKind::Uniform, 0, 1, 0, 0};
  EXPECT_EQ(cuda::random_threads(args), 4);
  args.kind = RandomKind::Integer;
  EXPECT_EQ(cuda::random_threads(args), 4);
  args.kind = RandomKind::Normal;
  EXPECT_EQ(cuda::random_threads(args), 7);
}

}  // namespace
}  // namespace ember
