// ScalarType sizes, names, and the promotion and casting tables against PyTorch's own (printed once
// by torch 1.13's promote_types / can_cast for every pair).
#include <gtest/gtest.h>

#include <sstream>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

constexpr ScalarType kAll[kNumScalarTypes] = {kBool,  kUInt8,   kInt8,     kInt16,   kInt32,
                                              kInt64, kFloat16, kBFloat16, kFloat32, kFloat64};

TEST(ScalarType, SizesAndKinds) {
  EXPECT_EQ(elementSize(kBool), 1u);
  EXPECT_EQ(elementSize(kFloat16), 2u);
  EXPECT_EQ(elementSize(kBFloat16), 2u);
  EXPECT_EQ(elementSize(kInt64), 8u);
  EXPECT_TRUE(isFloatingType(kBFloat16));
  EXPECT_FALSE(isFloatingType(kInt8));
  EXPECT_FALSE(isIntegralType(kBool, false));
  EXPECT_TRUE(isIntegralType(kBool, /*include_bool=*/true));
  EXPECT_STREQ(toString(kFloat32), "Float");
  EXPECT_STREQ(toString(kInt64), "Long");
  EXPECT_TRUE(isSignedType(kInt8));
  EXPECT_FALSE(isSignedType(kUInt8));
  EXPECT_FALSE(isSignedType(kBool));
  EXPECT_EQ(elementSize(kBFloat16), 2u);
}

// caffe2::TypeMeta as LibTorch's: compares with a ScalarType either way, prints the C++ name.
TEST(ScalarType, TypeMetaComparesAndPrintsAsLibTorch) {
  const Tensor x = zeros({2}, kInt64);
  EXPECT_TRUE(x.dtype() == kLong);
  EXPECT_TRUE(kLong == x.dtype());
  EXPECT_TRUE(x.dtype() != kFloat);
  EXPECT_EQ(x.dtype(), TypeMeta::Make<int64_t>());
  EXPECT_EQ(x.dtype().toScalarType(), kLong);
  EXPECT_EQ(x.dtype().itemsize(), 8u);
  EXPECT_TRUE(x.dtype().Match<int64_t>());
  std::ostringstream os;
  os << x.dtype() << " " << x.scalar_type() << " " << TypeMeta::Make<float>() << " "
     << TypeMeta::Make<Half>() << " " << TypeMeta::Make<uint8_t>();
  EXPECT_EQ(os.str(), "long int Long float c10::Half unsigned char");
}

TEST(ScalarType, DefaultDtypeIsFloatUntilSetAndOnlyFloating) {
  EXPECT_EQ(get_default_dtype(), kFloat);
  EXPECT_EQ(TensorOptions().dtype(), kFloat);
  set_default_dtype(TypeMeta::Make<double>());
  EXPECT_EQ(get_default_dtype_as_scalartype(), kDouble);
  EXPECT_EQ(TensorOptions().dtype(), kDouble);
  set_default_dtype(TypeMeta::Make<float>());
  EXPECT_THROW(set_default_dtype(TypeMeta::Make<int>()), ValueError);
  EXPECT_EQ(get_default_dtype(), kFloat);
}

TEST(TensorOptions, BuildersAndPrinting) {
  const TensorOptions o = dtype(kInt32).device(kCPU).requires_grad(true);
  EXPECT_EQ(o.dtype(), kInt);
  EXPECT_TRUE(o.requires_grad());
  EXPECT_TRUE(requires_grad().requires_grad());
  EXPECT_FALSE(requires_grad(false).requires_grad());
  EXPECT_EQ(TensorOptions(kCUDA, 1).device(), Device("cuda:1"));
  EXPECT_EQ(TensorOptions().device(kCUDA, 0).device(), Device("cuda:0"));
  EXPECT_EQ(TensorOptions().layout(kStrided).layout(), kStrided);
  EXPECT_FALSE(TensorOptions().has_layout());
  EXPECT_EQ(TensorOptions().dtype<double>().dtype(), kDouble);
  EXPECT_EQ(dtype(kFloat).merge_in(dtype(kInt16)).dtype(), kShort);
  std::ostringstream os;
  os << dtype(kFloat);
  EXPECT_EQ(os.str(),
            "TensorOptions(dtype=float, device=cpu (default), layout=Strided (default), "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))");
  std::ostringstream formats;
  formats << MemoryFormat::Preserve << " " << kStrided;
  EXPECT_EQ(formats.str(), "Preserve Strided");
}

TEST(ScalarType, PromotionTableMatchesPyTorch) {
  const ScalarType expected[kNumScalarTypes][kNumScalarTypes] = {
      {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kUInt8, kUInt8, kInt16, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt8, kInt16, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt16, kInt16, kInt16, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt32, kInt32, kInt32, kInt32, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kInt64, kInt64, kInt64, kInt64, kInt64, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64},
      {kFloat16, kFloat16, kFloat16, kFloat16, kFloat16, kFloat16, kFloat16, kFloat32, kFloat32,
       kFloat64},
      {kBFloat16, kBFloat16, kBFloat16, kBFloat16, kBFloat16, kBFloat16, kFloat32, kBFloat16,
       kFloat32, kFloat64},
      {kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32, kFloat32,
       kFloat64},
      {kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64, kFloat64,
       kFloat64},
  };
  for (int i = 0; i < kNumScalarTypes; ++i)
    for (int j = 0; j < kNumScalarTypes; ++j)
      EXPECT_EQ(promote_types(kAll[i], kAll[j]), expected[i][j]) << kAll[i] << " with " << kAll[j];
}

TEST(ScalarType, CanCastMatchesPyTorch) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    for (int j = 0; j < kNumScalarTypes; ++j) {
      ScalarType from = kAll[i], to = kAll[j];
      bool expected = from == kBool || (isIntegralType(from, false) && to != kBool) ||
                      (isFloatingType(from) && isFloatingType(to));
      EXPECT_EQ(can_cast(from, to), expected) << from << " -> " << to;
    }
  }
}

// Result types of mixed operands, each printed by torch 1.13.
TEST(ScalarType, ResultTypeWithScalarsAndZeroDim) {
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

TEST(ScalarType, HalfAndBFloat16RoundTrip) {
  EXPECT_EQ(static_cast<float>(Half(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(Half(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(70000.0f))));
  EXPECT_EQ(static_cast<float>(Half(0.1f)), 0.0999755859375f);            // nearest half
  EXPECT_EQ(static_cast<float>(Half(5.96046448e-08f)), 5.96046448e-08f);  // smallest subnormal
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::nanf("")))));
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(3.14159265f)), 3.140625f);
}

}  // namespace
}  // namespace ember
