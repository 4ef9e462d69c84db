// Integer arithmetic wraps modulo 2^bits (Note [Integer wraparound]) and out-of-range float to
// integer conversions give x86's answer (Note [Float to integer conversion]), on every device,
// instead of C++'s undefined behaviour. Found by the op_program fuzzer under UBSan; the expected
// values are what LibTorch gives on x86 CPUs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "ember/ember.h"
#include "kernels/scalar_cast.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();

TEST(IntegerWraparound, ElementwiseArithmetic) {
  for (Device d : test::all_devices()) {
    SCOPED_TRACE(d.str());
    Tensor big = tensor({kMax, kMin}).to(d);
    expect_values<int64_t>(big + 1, {2}, {kMin, kMin + 1});
    expect_values<int64_t>(sub(big, tensor({int64_t{-1}, 1}).to(d)), {2}, {kMin, kMax});
    expect_values<int64_t>(big * 2, {2}, {-2, 0});
    expect_values<int64_t>(add(big, big, 3), {2}, {-4, 0});  // 4 MAX, 4 MIN (mod 2^64)
    expect_values<int64_t>(-big, {2}, {kMin + 1, kMin});
    expect_values<int64_t>(abs(big), {2}, {kMax, kMin});
    expect_values<int64_t>(square(big), {2}, {1, 0});
    expect_values<int64_t>(pow(tensor({int64_t{3}}).to(d), 40), {1}, {-6289078614652622815});
    Tensor max32 = tensor({kMax32}, kInt32).to(d);
    expect_values<int32_t>(max32 * max32, {1}, {1});
    expect_values<int32_t>(tensor({kMax32}, kInt32).to(d) + 1, {1}, {kMin32});
    // MIN / -1 is the one quotient that overflows; it wraps to MIN, and MIN % -1 is 0.
    expect_values<int64_t>(floor_divide(big, -1), {2}, {kMin + 1, kMin});
    expect_values<int64_t>(remainder(big, -1), {2}, {0, 0});
    expect_values<int32_t>(floor_divide(tensor({kMin32}, kInt32).to(d), -1), {1}, {kMin32});
  }
}

TEST(IntegerWraparound, ReductionsAndMatmul) {
  for (Device d : test::all_devices()) {
    SCOPED_TRACE(d.str());
    Tensor big = tensor({kMax, int64_t{1}}).to(d);
    expect_values<int64_t>(big.sum(), {}, {kMin});
    expect_values<int64_t>(prod(tensor({kMax, int64_t{2}}).to(d)), {}, {-2});
    expect_values<int64_t>(cumsum(big, 0), {2}, {kMax, kMin});
    // [MAX, 1] @ [2, 3]^T = 2 MAX + 3 = -2 + 3 (mod 2^64)
    expect_values<int64_t>(matmul(tensor({kMax, int64_t{1}}).view({1, 2}).to(d),
                                  tensor({int64_t{2}, int64_t{3}}).view({2, 1}).to(d)),
                           {1, 1}, {1});
  }
}

TEST(IntegerWraparound, DivisorThatBecomesZeroInTheResultDtype) {
  // A uint8 tensor with the number 256: the number takes the tensor's dtype, where it is 0.
  Tensor x = tensor({5, 7}, kUInt8);
  EXPECT_EQ(error_of<ValueError>([&] { floor_divide(x, 256); }),
            "[floor_divide] ZeroDivisionError: integer division by zero");
  EXPECT_EQ(error_of<ValueError>([&] { remainder(x, 512); }),
            "[remainder] ZeroDivisionError: integer division by zero");
  expect_values<uint8_t>(floor_divide(x, 257), {2}, {5, 7});  // 257 is 1 in uint8
}

TEST(FloatToInteger, OutOfRangeValuesConvertAsOnX86) {
  for (Device d : test::all_devices()) {
    SCOPED_TRACE(d.str());
    Tensor x =
        tensor({NAN, INFINITY, -INFINITY, 1e20, -1e20, 3.7, -3.7, 300.0, -1.0, 40000.0}, kFloat64)
            .to(d);
    expect_values<int64_t>(x.to(kInt64), {10},
                           {kMin, kMin, kMin, kMin, kMin, 3, -3, 300, -1, 40000});
    expect_values<int32_t>(x.to(kInt32), {10},
                           {kMin32, kMin32, kMin32, kMin32, kMin32, 3, -3, 300, -1, 40000});
    // Narrow types go through int32 and wrap: 300 -> 44, -1 -> 255, 40000 -> -25536.
    expect_values<uint8_t>(x.to(kUInt8), {10}, {0, 0, 0, 0, 0, 3, 253, 44, 255, 64});
    expect_values<int16_t>(x.to(kInt16), {10}, {0, 0, 0, 0, 0, 3, -3, 300, -1, -25536});
    expect_values<int64_t>(tensor({NAN}, kFloat16).to(d).to(kInt64), {1}, {kMin});
  }
}

// A number in an op converts as a tensor would (Note [Scalars in kernels]); Scalar's own
// accessors check (tests/core/scalar_test.cpp).
TEST(FloatToInteger, ScalarsInKernels) {
  EXPECT_EQ(kernels::scalar_cast<int64_t>(Scalar(NAN)), kMin);
  EXPECT_EQ(kernels::scalar_cast<int64_t>(Scalar(1e300)), kMin);
  EXPECT_EQ(kernels::scalar_cast<int64_t>(Scalar(-2.9)), -2);
  EXPECT_EQ(kernels::scalar_cast<int32_t>(Scalar(3e9)), kMin32);
  EXPECT_EQ(kernels::scalar_cast<uint8_t>(Scalar(300.0)), 44);
}

}  // namespace
}  // namespace ember
