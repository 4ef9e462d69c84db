// Scalar's c10 accessors: the kind a number keeps, and the checked conversions (values and
// messages as LibTorch 1.13 gives them).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "ember/ember.h"

namespace ember {
namespace {

template <class Access>
std::string message_of(Access access) {
  try {
    access();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Scalar, KeepsItsKindAsC10Does) {
  EXPECT_EQ(Scalar(2.5).type(), kDouble);
  EXPECT_EQ(Scalar(1.5f).type(), kDouble);
  EXPECT_EQ(Scalar(3).type(), kLong);
  EXPECT_EQ(Scalar(int8_t{3}).type(), kLong);
  EXPECT_EQ(Scalar(true).type(), kBool);
  EXPECT_TRUE(Scalar(2.5).isFloatingPoint());
  EXPECT_TRUE(Scalar(3).isIntegral(false));
  EXPECT_FALSE(Scalar(true).isIntegral(false));
  EXPECT_TRUE(Scalar(true).isIntegral(true));
  EXPECT_TRUE(Scalar(true).isBoolean());
  EXPECT_FALSE(Scalar(2.5).isComplex());
  EXPECT_TRUE(Scalar(2.5).equal(2.5));
  EXPECT_FALSE(Scalar(2.0).equal(2));  // c10 compares the kind too
  EXPECT_TRUE(Scalar(2).equal(2));
  EXPECT_TRUE(Scalar(true).equal(true));
}

TEST(Scalar, AccessorsTruncateAndConvert) {
  EXPECT_EQ(Scalar(2.9).toLong(), 2);
  EXPECT_EQ(Scalar(-2.7).toInt(), -2);
  EXPECT_EQ(Scalar(7).toDouble(), 7.0);
  EXPECT_EQ(Scalar(2.5).toFloat(), 2.5f);
  EXPECT_EQ(Scalar(int64_t{-1}).toByte(), 255);  // a negative integer wraps into unsigned
  EXPECT_EQ(Scalar(100).toChar(), 100);
  EXPECT_EQ(Scalar(1.0).toBool(), true);
  EXPECT_EQ(Scalar(0).toBool(), false);
  EXPECT_EQ(static_cast<float>(Scalar(1.5).toHalf()), 1.5f);
  EXPECT_EQ(static_cast<float>(Scalar(3).toBFloat16()), 3.0f);
  EXPECT_TRUE(std::isnan(Scalar(NAN).toFloat()));  // floating types hold NaN and inf
  EXPECT_TRUE(std::isinf(Scalar(INFINITY).toHalf()));
  EXPECT_EQ((-Scalar(3)).toLong(), -3);
  EXPECT_EQ((-Scalar(2.5)).toDouble(), -2.5);
}

TEST(Scalar, AccessorsRefuseWhatTheTypeCannotHold) {
  // The phrases are c10's (checked_convert), with the C++ type names it uses.
  EXPECT_NE(message_of([] {
              Scalar(1e10).toInt();
            }).find("value cannot be converted to type int without overflow"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              Scalar(1e300).toFloat();
            }).find("value cannot be converted to type float without overflow"),
            std::string::npos);
  EXPECT_NE(message_of([] { Scalar(NAN).toLong(); }).find("type int64_t without overflow"),
            std::string::npos);
  EXPECT_NE(message_of([] { Scalar(0x1p63).toLong(); }).find("int64_t"), std::string::npos);
  EXPECT_NE(message_of([] { Scalar(300).toByte(); }).find("uint8_t"), std::string::npos);
  EXPECT_NE(message_of([] { Scalar(-129).toChar(); }).find("int8_t"), std::string::npos);
  EXPECT_NE(message_of([] { Scalar(2).toBool(); }).find("type bool"), std::string::npos);
  EXPECT_NE(message_of([] { Scalar(70000.0).toHalf(); }).find("at::Half"), std::string::npos);
  EXPECT_NE(message_of([] { -Scalar(true); }).find("boolean negative"), std::string::npos);
}

TEST(Scalar, PrintsAsLibTorch) {
  std::ostringstream os;
  os << Scalar(2.5) << ' ' << Scalar(3) << ' ' << Scalar(true);
  EXPECT_EQ(os.str(), "2.5 3 true");
}

}  // namespace
}  // namespace ember
