// scatter_add's atomic updates of 1- and 2-byte elements (Note [Atomic updates of small elements]
// in src/cuda/shape_kernels.cu): on every device, many adds onto the last element of an exactly
// sized output leave its neighbours as they were; and, on the host, the premise that lets the
// GPU use the hardware's 16-bit float atomicAdd: its correctly rounded sum is the CPU kernel's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/scatter_gather_program.h"
#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

// 50 ones onto element 0 and 100 onto element 2 of [7, 5, 9], all in one launch: the last
// element's word reaches past a 3-byte output, and element 1 shares it.
TEST(ScatterAddAtomics, SmallElementsOnEveryDevice) {
  const Tensor index = full({150}, 2, TensorOptions(kInt64));
  index.narrow(0, 0, 50).fill_(0);
  for (Device device : test::all_devices())
    for (ScalarType dtype : {kBool, kUInt8, kInt8, kInt16, kFloat16, kBFloat16}) {
      SCOPED_TRACE(::testing::Message() << device << " " << dtype);
      const Tensor sums = scatter_add(tensor({7, 5, 9}).to(device, dtype), 0, index.to(device),
                                      ones({150}, TensorOptions(dtype).device(device)));
      const std::vector<double> expected =
          dtype == kBool ? std::vector<double>{1, 1, 1} : std::vector<double>{57, 5, 109};
      test::expect_close(sums.to(kFloat64), {3}, expected, 0, 0);
    }
}

// A 16-bit float, its bits and its exact value.
template <class T>
T from_bits(uint16_t bits) {
  T t;
  t.bits = bits;
  return t;
}

template <class T>
bool is_finite(uint16_t bits) {
  return std::isfinite(static_cast<float>(from_bits<T>(bits)));
}

// Whether `sum` is the exact a + b rounded to the nearest T, ties to the even one: no finite
// neighbour of it is nearer, nor as near and even. (A double holds any sum of two 16-bit floats
// exactly.)
template <class T>
bool is_correctly_rounded(T a, T b, T sum) {
  const double exact = static_cast<double>(static_cast<float>(a)) + static_cast<float>(b);
  const double error = std::abs(static_cast<float>(sum) - exact);
  for (int step : {-1, 1}) {
    const auto neighbour = static_cast<uint16_t>(sum.bits + step);
    if (!is_finite<T>(neighbour)) continue;
    const double other = std::abs(static_cast<float>(from_bits<T>(neighbour)) - exact);
    if (other < error || (other == error && neighbour % 2 == 0)) return false;
  }
  return true;
}

// The CPU kernel adds in float and rounds the float sum to 16 bits; the hardware rounds the exact
// sum once. A float's 24 bits are at least 2p + 2 for p = 11 (float16) and 8 (bfloat16), so the
// two roundings never differ. Checked here over a spread of all finite pairs, subnormals, signs
// and far-apart exponents included, and over every value plus the smallest ones.
template <class T>
void expect_float_sum_rounded_once() {
  int64_t checked = 0, wrong = 0;
  auto check = [&](uint32_t a_bits, uint16_t b_bits) {
    const T a = from_bits<T>(static_cast<uint16_t>(a_bits)), b = from_bits<T>(b_bits);
    if (!is_finite<T>(a.bits) || !is_finite<T>(b.bits)) return;
    const T sum = cuda::scatter_add_value(a, b);
    if (!std::isfinite(static_cast<float>(sum))) return;  // overflow: infinity either way
    ++checked;
    if (!is_correctly_rounded(a, b, sum) && ++wrong == 1)
      ADD_FAILURE() << "a bits " << a.bits << ", b bits " << b.bits << ", sum bits " << sum.bits;
  };
  for (uint32_t a = 0; a < 0x10000; a += 61)
    for (uint32_t b = 0; b < 0x10000; b += 67) check(a, static_cast<uint16_t>(b));
  for (uint32_t a = 0; a < 0x10000; ++a)
    for (uint16_t b : {0x0001, 0x8001, 0x0003, 0x8400}) check(a, b);
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(checked, 1'000'000);
}

TEST(ScatterAddAtomics, Float16SumIsRoundedOnce) { expect_float_sum_rounded_once<Half>(); }
TEST(ScatterAddAtomics, BFloat16SumIsRoundedOnce) { expect_float_sum_rounded_once<BFloat16>(); }

}  // namespace
}  // namespace ember
