// A number written into a tensor must fit its dtype (c10's checked_convert): fill_, full,
// masked_fill, scatter's value, clamp's bounds, addmm's coefficients. Numbers that take part in
// type promotion (x + 300) are not checked. Found by the differential test against LibTorch.
#include <gtest/gtest.h>

#include <cmath>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

TEST(ScalarOverflow, WrittenNumbersMustFitTheDtype) {
  Tensor mask = tensor({true, false});
  EXPECT_EQ(error_of<ValueError>([&] {
              masked_fill(tensor({1, 2}, kUInt8), mask, -0.5);
            }),
            "[masked_fill] value cannot be converted to type Byte without overflow");
  EXPECT_EQ(error_of<ValueError>([&] {
              masked_fill(tensor({1, 2}, kInt8), mask, 128);
            }),
            "[masked_fill] value cannot be converted to type Char without overflow");
  EXPECT_EQ(error_of<ValueError>([] { zeros({2}, kFloat16).fill_(1e5); }),
            "[fill_] value cannot be converted to type Half without overflow");
  EXPECT_EQ(error_of<ValueError>([] { full({2}, NAN, kInt32); }),
            "[fill_] value cannot be converted to type Int without overflow");
  EXPECT_EQ(error_of<ValueError>([] {
              clamp(tensor({1, 2}, kInt8), 300, std::nullopt);
            }),
            "[clamp] value cannot be converted to type Char without overflow");
  EXPECT_EQ(error_of<ValueError>([] { scalar_tensor(256, kUInt8); }),
            "[scalar_tensor] value cannot be converted to type Byte without overflow");
}

TEST(ScalarOverflow, WhatFits) {
  // An integer wraps into an unsigned type when its magnitude fits (c10's rule): -1 is 255.
  expect_values<uint8_t>(masked_fill(tensor({1, 2}, kUInt8), tensor({true, false}), -1), {2},
                         {255, 2});
  // Conversions to bool never overflow; infinities fit every floating type.
  expect_values<bool>(zeros({2}, kBool).fill_(7), {2}, {true, true});
  EXPECT_TRUE(std::isinf(zeros({1}, kFloat16).fill_(INFINITY).item<float>()));
  // Numbers in type promotion are converted like tensors, unchecked: int8 wraps.
  expect_values<int8_t>(tensor({1}, kInt8) + 300, {1}, {45});
}

TEST(ScalarOverflow, CheckedOnlyWhereTheNumberIsWritten) {
  Tensor x = tensor({3}, kUInt8);
  EXPECT_EQ(error_of<ValueError>([&] { scatter(x, 0, tensor({0}), -0.25); }),
            "[scatter] value cannot be converted to type Byte without overflow");
  expect_values<uint8_t>(scatter(x, 0, zeros({0}, kInt64), -0.25), {1}, {3});  // nothing written
  Tensor m = ones({1, 1}, kInt8);
  EXPECT_EQ(error_of<ValueError>([&] { addmm(m, m, m, 1, 1000); }),
            "[addmm] value cannot be converted to type Char without overflow");
  EXPECT_EQ(addmm(zeros({0, 1}, kInt8), zeros({0, 1}, kInt8), m, 1, 1000).numel(), 0);
}

}  // namespace
}  // namespace ember
