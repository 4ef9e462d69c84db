// DType sizes, names, and the promotion and casting tables against PyTorch's own (printed once
// by torch 1.13's promote_types / can_cast for every pair).
#include <gtest/gtest.h>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

constexpr DType kAll[kNumDTypes] = {kBool,    kUInt8,    kInt8,    kInt16,   kInt32,
                                    kInt64,   kFloat16,  kBFloat16, kFloat32, kFloat64};

TEST(DType, SizesAndKinds) {
  EXPECT_EQ(element_size(kBool), 1u);
  EXPECT_EQ(element_size(kFloat16), 2u);
  EXPECT_EQ(element_size(kBFloat16), 2u);
  EXPECT_EQ(element_size(kInt64), 8u);
  EXPECT_TRUE(is_floating_point(kBFloat16));
  EXPECT_FALSE(is_floating_point(kInt8));
  EXPECT_FALSE(is_integral(kBool));
  EXPECT_TRUE(is_integral(kBool, /*include_bool=*/true));
  EXPECT_STREQ(dtype_name(kFloat32), "Float");
  EXPECT_STREQ(dtype_name(kInt64), "Long");
  EXPECT_STREQ(dtype_repr(kFloat16), "torch.float16");
}

TEST(DType, PromotionTableMatchesPyTorch) {
  const DType expected[kNumDTypes][kNumDTypes] = {
      {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kUInt8, kUInt8, kInt16, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt8, kInt16, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt16, kInt16, kInt16, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt32, kInt32, kInt32, kInt32, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt64, kInt64, kInt64, kInt64, kInt64, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kFloat16, kFloat16, kFloat16, kFloat16, kFloat16, kFloat16, kFloat16, kFloat32, kFloat32, kFloat64},
      {kBFloat16, kBFloat16, kBFloat16, kBFloat16, kBFloat16, kBFloat16, kFloat32, kBFloat16, kFloat32, kFloat64},
      {kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat64},
      {kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64},
  };
  for (int i = 0; i < kNumDTypes; ++i)
    for (int j = 0; j < kNumDTypes; ++j)
      EXPECT_EQ(promote_types(kAll[i], kAll[j]), expected[i][j]) << kAll[i] << " with " << kAll[j];
}

TEST(DType, CanCastMatchesPyTorch) {
  for (int i = 0; i < kNumDTypes; ++i) {
    for (int j = 0; j < kNumDTypes; ++j) {
      DType from = kAll[i], to = kAll[j];
      bool expected = from == kBool || (is_integral(from) && to != kBool) ||
                      (is_floating_point(from) && is_floating_point(to));
      EXPECT_EQ(can_cast(from, to), expected) << from << " -> " << to;
    }
  }
}

// Result types of mixed operands, each printed by torch 1.13.
TEST(DType, ResultTypeWithScalarsAndZeroDim) {
  EXPECT_EQ((tensor({1, 2}) + 2.5).dtype(), kFloat32);
  EXPECT_EQ((tensor({1, 2}, kFloat16) + 2.5).dtype(), kFloat16);
  EXPECT_EQ((tensor({1, 2}, kInt32) + 5).dtype(), kInt32);
  EXPECT_EQ((tensor({true}) + 5).dtype(), kInt64);
  EXPECT_EQ((tensor({1, 2}, kInt32) + tensor(5)).dtype(), kInt32);
  EXPECT_EQ((tensor({1, 2}, kInt32) + tensor(5.0)).dtype(), kFloat32);
  EXPECT_EQ((tensor({1, 2}, kUInt8) + tensor({1}, kInt8)).dtype(), kInt16);
  EXPECT_EQ((tensor(1, kInt8) + tensor(2.5, kFloat64)).dtype(), kFloat64);
  EXPECT_EQ((tensor({true}) + true).dtype(), kBool);
  EXPECT_EQ((tensor({1.0}, kFloat64) * tensor(2.0, kFloat32)).dtype(), kFloat64);
  EXPECT_EQ((tensor({1, 2}) / tensor({2, 2})).dtype(), kFloat32);  // true division
}

TEST(DType, HalfAndBFloat16RoundTrip) {
  EXPECT_EQ(static_cast<float>(Half(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(Half(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(70000.0f))));
  EXPECT_EQ(static_cast<float>(Half(0.1f)), 0.0999755859375f);   // nearest half
  EXPECT_EQ(static_cast<float>(Half(5.96046448e-08f)), 5.96046448e-08f);  // smallest subnormal
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::nanf("")))));
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(3.14159265f)), 3.140625f);
}

}  // namespace
}  // namespace ember
