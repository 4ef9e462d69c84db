// PyTorch's dtype rules for elementwise ops that the differential test against LibTorch
// (tests/diff) found ember missing: which ops have no bool kernel, bool and floating alpha,
// subtraction with a bool operand, and when integer division by zero is an error.
#include <gtest/gtest.h>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

bool mentions(const std::string& message, const char* text) {
  return message.find(text) != std::string::npos;
}

TEST(DTypeRules, SubtractionRefusesEveryBoolOperand) {
  const char* refusal = "Subtraction, the `-` operator, with a bool tensor is not supported";
  EXPECT_TRUE(mentions(error_of<TypeError>([] {
                         tensor({1, 2}) - tensor({true, false});
                       }),
                       refusal));
  EXPECT_TRUE(mentions(error_of<TypeError>([] { tensor({1.5f}) - true; }), refusal));
  // A number on the left is filled into the tensor's dtype first, as LibTorch's operator-:
  // true becomes 1.0, and float minus float is fine.
  expect_values<float>(true - tensor({1.5f}), {1}, {-0.5f});
  EXPECT_TRUE(mentions(error_of<TypeError>([] {
                         Tensor x = tensor({1, 2});
                         x.sub_(tensor({true, false}));
                       }),
                       refusal));
  expect_values<int64_t>(tensor({1, 2}) - 1, {2}, {0, 1});  // numbers of other kinds are fine
}

TEST(DTypeRules, BoolAlphaOnlyForBoolResults) {
  const char* refusal = "Boolean alpha only supported for Boolean results.";
  EXPECT_TRUE(mentions(error_of<TypeError>([] {
                         add(tensor({1, 2}), tensor({3, 4}), true);
                       }),
                       refusal));
  // sub runs as add with -alpha: the check must see the alpha as given.
  EXPECT_TRUE(
      mentions(error_of<TypeError>([] { sub(tensor({1.f}), tensor({2.f}), false); }), refusal));
  expect_values<bool>(add(tensor({true, false}), tensor({true, true}), 2), {2}, {true, true});
  expect_values<bool>(add(tensor({false}), tensor({true}), false), {1}, {false});
}

TEST(DTypeRules, PowFloorDivideRemainderHaveNoBoolKernel) {
  const char* refusal = "not implemented for 'Bool'";
  EXPECT_TRUE(mentions(error_of<TypeError>([] { pow(tensor({true}), tensor({false})); }), refusal));
  EXPECT_TRUE(mentions(error_of<TypeError>([] { pow(false, tensor({true})); }), refusal));
  EXPECT_TRUE(
      mentions(error_of<TypeError>([] { floor_divide(tensor({true}), tensor({true})); }), refusal));
  EXPECT_TRUE(mentions(error_of<TypeError>([] { remainder(tensor({true}), true); }), refusal));
  // A bool base with an integer exponent promotes to int64, where negative powers are refused.
  expect_values<int64_t>(pow(tensor({true, false}), 2), {2}, {1, 0});
  EXPECT_EQ(error_of<ValueError>([] {
              pow(tensor({true, false}), -2);
            }),
            "[pow] Integers to negative integer powers are not allowed.");
}

TEST(DTypeRules, AbsFloorCeilRoundHaveNoBoolKernel) {
  for (auto op :
       {+[](const Tensor& x) { return abs(x); }, +[](const Tensor& x) { return floor(x); },
        +[](const Tensor& x) { return ceil(x); }, +[](const Tensor& x) { return round(x); }})
    EXPECT_TRUE(
        mentions(error_of<TypeError>([&] { op(tensor({true})); }), "not implemented for 'Bool'"));
  expect_values<bool>(sign(tensor({true, false})), {2}, {true, false});  // sign has one
  expect_values<int64_t>(floor(tensor({-3, 4})), {2}, {-3, 4});          // integers are copied
}

TEST(DTypeRules, ClampRefusesOnlyABoolResult) {
  // The bounds take part in type promotion: a float or int bound lifts a bool tensor.
  expect_values<float>(clamp(tensor({true, false}), 0.5, std::nullopt), {2}, {1.0f, 0.5f});
  expect_values<int64_t>(clamp(tensor({true, false}), std::nullopt, 0), {2}, {0, 0});
  EXPECT_TRUE(mentions(error_of<TypeError>([] { clamp(tensor({true}), false, true); }),
                       "[clamp] not implemented for 'Bool'"));
}

TEST(DTypeRules, ZeroDivisorOnlyCountsWhereItDivides) {
  // An empty result divides nothing: PyTorch checks each division it makes, so none fails.
  Tensor q = floor_divide(zeros({0, 2}, kInt64), tensor({0, 1}));
  EXPECT_EQ(q.sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(remainder(zeros({3, 0}, kInt32), tensor({{0}, {1}, {2}})).numel(), 0);
  EXPECT_EQ(error_of<ValueError>([] {
              remainder(tensor({1, 2}), tensor({0, 1}));
            }),
            "[remainder] ZeroDivisionError: integer division by zero");
}

TEST(DTypeRules, CumsumHasNoBoolResult) {
  EXPECT_TRUE(mentions(error_of<TypeError>([] {
                         cumsum(tensor({true, false}), 0, kBool);
                       }),
                       "[cumsum] is not implemented for Bool results"));
  expect_values<int64_t>(cumsum(tensor({true, false, true}), 0), {3}, {1, 1, 2});
}

// clamp_ writes its result into self: float bounds would promote an integer tensor, and
// truncating that back is refused as for every in-place op; integer bounds are fine.
TEST(DTypeRules, InPlaceClampKeepsSelfsDtype) {
  Tensor x = tensor({1, 5, -4});
  std::string msg = error_of<TypeError>([&] { x.clamp_(-2.5, 1.25); });
  EXPECT_EQ(msg, "[clamp_] result type Float can't be cast to the desired output type Long");
  expect_values<int64_t>(x, {3}, {1, 5, -4});  // untouched
  x.clamp_(-2, 2);
  expect_values<int64_t>(x, {3}, {1, 2, -2});
}

}  // namespace
}  // namespace ember
