// The forms LibTorch gives each elementwise op (function, in-place, out=, method, in-place method),
// the ops the tables gained for it (exp2 ... isfinite, fmod, atan2, bits and shifts), the
// operators, and handle semantics: values worked by hand, or printed by torch 1.13.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_close;
using test::expect_values;

TEST(ElementwiseForms, EveryFormOfOneUnaryOp) {
  const Tensor x = tensor({1.f, 4.f});
  expect_values<float>(sqrt(x), {2}, {1.f, 2.f});
  expect_values<float>(x.sqrt(), {2}, {1.f, 2.f});
  Tensor y = x.clone();
  Tensor& same = sqrt_(y);
  EXPECT_TRUE(same.is_same(y));
  expect_values<float>(y, {2}, {1.f, 2.f});
  Tensor out = empty({2}, kFloat64);
  sqrt_out(out, x);  // the result is cast into out's dtype
  expect_values<double>(out, {2}, {1.0, 2.0});
  // An in-place method on a const handle writes the data: LibTorch's `const Tensor&` idiom.
  const Tensor z = x.clone();
  z.exp_().neg_();
  EXPECT_NEAR(z[1].item<float>(), -std::exp(4.f), 1e-2);
}

TEST(ElementwiseForms, InPlaceAndOutRefuseWhatTheirDtypeCannotHold) {
  Tensor i = tensor({1, 4});
  EXPECT_EQ(error_of<TypeError>([&] { i.sqrt_(); }),
            "[sqrt_] result type Float can't be cast to the desired output type Long");
  Tensor o = empty({2}, kInt32);
  EXPECT_EQ(error_of<TypeError>([&] {
              exp_out(o, tensor({1.f, 2.f}));
            }),
            "[exp_out] result type Float can't be cast to the desired output type Int");
}

TEST(ElementwiseForms, NewUnaryRows) {
  const Tensor x = tensor({0.25, 0.5});
  expect_close(exp2(x), {2}, {std::exp2(0.25), std::exp2(0.5)});
  expect_close(log2(x), {2}, {-2.0, -1.0});
  expect_close(log10(tensor({10.0, 1000.0})), {2}, {1.0, 3.0});
  expect_close(asin(x), {2}, {std::asin(0.25), std::asin(0.5)});
  expect_close(acos(x), {2}, {std::acos(0.25), std::acos(0.5)});
  expect_close(atan(x), {2}, {std::atan(0.25), std::atan(0.5)});
  expect_close(sinh(x), {2}, {std::sinh(0.25), std::sinh(0.5)});
  expect_close(cosh(x), {2}, {std::cosh(0.25), std::cosh(0.5)});
  expect_values<float>(trunc(tensor({-1.7f, 2.5f})), {2}, {-1.f, 2.f});
  expect_values<int64_t>(trunc(tensor({-3, 4})), {2}, {-3, 4});  // integers are kept
  expect_values<float>(frac(tensor({-1.75f, 2.5f})), {2}, {-0.75f, 0.5f});
  EXPECT_THROW(frac(tensor({1, 2})), TypeError);
  expect_values<float>(exp2(tensor({3})), {1}, {8.f});  // an integer computes in float32
}

TEST(ElementwiseForms, NanInfAndBits) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  const Tensor f = tensor({1.f, inf, -inf, nan});
  expect_values<bool>(isnan(f), {4}, {false, false, false, true});
  expect_values<bool>(isinf(f), {4}, {false, true, true, false});
  expect_values<bool>(isfinite(f), {4}, {true, false, false, false});
  expect_values<bool>(isfinite(tensor({7, -1})), {2}, {true, true});  // integers always are
  expect_values<bool>(isinf(tensor({true})), {1}, {false});
  expect_values<int64_t>(bitwise_not(tensor({0, 5, -1})), {3}, {-1, -6, 0});
  expect_values<uint8_t>(bitwise_not(tensor({uint8_t{0}, uint8_t{240}})), {2}, {255, 15});
  expect_values<bool>(~tensor({true, false}), {2}, {false, true});
  EXPECT_EQ(error_of<TypeError>([] { bitwise_not(tensor({1.5f})); }),
            "[bitwise_not] not implemented for 'Float': bitwise operations take "
            "integer and bool tensors");
}

TEST(ElementwiseForms, BitwiseAndShiftOps) {
  const Tensor a = tensor({12, -8}), b = tensor({10, 3});
  expect_values<int64_t>(a & b, {2}, {8, 0});
  expect_values<int64_t>(a | b, {2}, {14, -5});
  expect_values<int64_t>(a ^ b, {2}, {6, -5});
  expect_values<int64_t>(a & 4, {2}, {4, 0});
  expect_values<int64_t>(5 | b, {2}, {15, 7});
  expect_values<bool>(tensor({true, false}) ^ tensor({true, true}), {2}, {false, true});
  expect_values<int64_t>(a << 2, {2}, {48, -32});
  expect_values<int64_t>(a >> b, {2}, {0, -1});                    // the sign fills a right shift
  expect_values<int64_t>(bitwise_left_shift(a, 64), {2}, {0, 0});  // shifted out entirely
  expect_values<int64_t>(bitwise_right_shift(a, 70), {2}, {0, -1});
  expect_values<int64_t>(1 << tensor({0, 3}), {2}, {1, 8});
  expect_values<uint8_t>(tensor({uint8_t{200}}) << 1, {1}, {144});  // wraps at 8 bits
  EXPECT_THROW(tensor({1.5f}) & tensor({2.f}), TypeError);
  EXPECT_THROW(tensor({true}) << tensor({true}), TypeError);  // shifts take integers only
  expect_values<int64_t>(tensor({true}) << 1, {1}, {2});      // the number promotes bool to int64
  Tensor m = tensor({6, 3});
  m &= tensor({3, 3});
  m |= tensor({8, 0});
  m ^= tensor({1, 1});
  m <<= 1;
  expect_values<int64_t>(m, {2}, {22, 4});
}

TEST(ElementwiseForms, FmodAndAtan2) {
  // C's fmod keeps the dividend's sign, Python's remainder the divisor's.
  expect_values<float>(fmod(tensor({-7.f, 7.f}), 3), {2}, {-1.f, 1.f});
  expect_values<float>(remainder(tensor({-7.f, 7.f}), 3), {2}, {2.f, 1.f});
  expect_values<int64_t>(fmod(tensor({-7, 7}), tensor({3, -3})), {2}, {-1, 1});
  EXPECT_EQ(error_of<ValueError>([] { fmod(tensor({1}), 0); }),
            "[fmod] ZeroDivisionError: integer division by zero");
  expect_close(atan2(tensor({1.0, -1.0}), tensor({1.0, 0.0})), {2},
               {std::atan2(1.0, 1.0), std::atan2(-1.0, 0.0)});
  expect_values<float>(atan2(tensor({0}), tensor({1})), {1}, {0.f});  // integers to float32
}

// LibTorch's operators with a number on the left: + and * commute; -, / and % fill the number
// into a tensor of the right operand's dtype, so an int tensor stays int (torch 1.13 prints
// [1, -2] for 2.5 - torch::tensor({1, 4})) and 2 / int_tensor is refused.
TEST(ElementwiseForms, NumberOnTheLeftFollowsLibTorch) {
  expect_values<float>(2.5 + tensor({1, 4}), {2}, {3.5f, 6.5f});
  expect_values<int64_t>(2.5 - tensor({1, 4}), {2}, {1, -2});
  expect_values<float>(2.5 - tensor({1.f, 4.f}), {2}, {1.5f, -1.5f});
  expect_values<float>(6 / tensor({2.f, 4.f}), {2}, {3.f, 1.5f});
  EXPECT_EQ(error_of<TypeError>([] {
              2 / tensor({1, 4});
            }),
            "[div_] result type Float can't be cast to the desired output type Long");
  expect_values<int64_t>(7 % tensor({3, -4}), {2}, {1, -1});
  expect_values<bool>(1 < tensor({0, 2}), {2}, {false, true});
  expect_values<bool>(1 == tensor({1, 2}), {2}, {true, false});
}

TEST(ElementwiseForms, AssignmentToATemporaryWritesTheElements) {
  Tensor x = zeros({2, 3});
  x[0] = 5;                        // fill_
  x[1] = tensor({1.f, 2.f, 3.f});  // copy_, broadcast into the row
  x[1][2] += 10;                   // compound assignment on a temporary: writes too
  expect_values<float>(x, {2, 3}, {5.f, 5.f, 5.f, 1.f, 2.f, 13.f});
  Tensor y = x;   // a named tensor rebinds: y and x share
  y = ones({1});  // y now names another tensor; x keeps its values
  EXPECT_EQ(x.numel(), 6);
  EXPECT_EQ(y.numel(), 1);
}

TEST(ElementwiseForms, CompoundOperatorsAreMembersAndChain) {
  Tensor x = tensor({1.f, 2.f});
  (x += 1) *= 3;
  x -= tensor({1.f, 1.f});
  x /= 2;
  expect_values<float>(x, {2}, {2.5f, 4.f});
  const Tensor c = tensor({1.f});
  c.add_(1).mul_(4);  // in-place methods are const and return the handle
  expect_values<float>(c, {1}, {8.f});
}

}  // namespace
}  // namespace ember
