// The factories' LibTorch overloads and dtype inference; values and dtypes from PyTorch 1.13.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::expect_close;
using test::expect_values;

// Sets the default dtype for one test and restores float afterwards, even when it fails.
struct DefaultDtype {
  explicit DefaultDtype(ScalarType t) { set_default_dtype(TypeMeta::fromScalarType(t)); }
  ~DefaultDtype() { set_default_dtype(TypeMeta::fromScalarType(kFloat)); }
};

TEST(FactoryOverloads, ArangeInfersLongFromIntegersAndTheDefaultDtypeOtherwise) {
  expect_values<int64_t>(arange(5), {5}, {0, 1, 2, 3, 4});
  EXPECT_EQ(arange(5).scalar_type(), kLong);
  expect_values<int64_t>(arange(5, 0, -2), {3}, {5, 3, 1});
  expect_values<float>(arange(0.5, 2.5), {2}, {0.5f, 1.5f});
  EXPECT_EQ(arange(5.0).scalar_type(), kFloat);
  // The middle overload takes options as its third argument: no step is assumed.
  expect_values<float>(arange(1, 4, kFloat), {3}, {1, 2, 3});
  expect_values<int16_t>(arange(0, 10, 3, kShort), {4}, {0, 3, 6, 9});
  expect_values<double>(arange(-1.0, 1.0, 0.5, dtype(kDouble)), {4}, {-1, -0.5, 0, 0.5});
  EXPECT_TRUE(arange(3.0, requires_grad()).requires_grad());
  EXPECT_EQ(arange(0).numel(), 0);
  DefaultDtype doubles(kDouble);
  EXPECT_EQ(arange(0.5, 2).scalar_type(), kDouble);
  EXPECT_EQ(arange(3).scalar_type(), kLong);
}

TEST(FactoryOverloads, LinspaceAndLogspace) {
  expect_values<float>(linspace(0, 1, 5), {5}, {0, 0.25f, 0.5f, 0.75f, 1});
  expect_values<float>(linspace(-1, 1, 1), {1}, {-1});
  EXPECT_EQ(linspace(0, 1, 0).numel(), 0);
  expect_close(linspace(1.0, 2.0, 4, kDouble), {4}, {1.0, 4.0 / 3, 5.0 / 3, 2.0}, 1e-15, 0);
  expect_values<int64_t>(linspace(0, 10, 3, kLong), {3}, {0, 5, 10});
  expect_values<float>(logspace(0, 2, 3), {3}, {1, 10, 100});
  expect_values<float>(logspace(0, 3, 4, 2), {4}, {1, 2, 4, 8});
  expect_close(logspace(-1, 1, 3), {3}, {0.1, 1, 10});
  expect_values<double>(logspace(0, 1, 2, 10.0, kDouble), {2}, {1, 10});
  DefaultDtype doubles(kDouble);
  EXPECT_EQ(linspace(0, 1, 3).scalar_type(), kDouble);
}

TEST(FactoryOverloads, TensorTakesItsDtypeFromTheElementType) {
  EXPECT_EQ(tensor({1, 2, 3}).scalar_type(), kLong);
  EXPECT_EQ(tensor({1.5, 2.5}).scalar_type(), kFloat);
  EXPECT_EQ(tensor({true, false}).scalar_type(), kBool);
  expect_values<int16_t>(tensor({int16_t{1}, int16_t{-2}}), {2}, {1, -2});
  expect_values<uint8_t>(tensor({uint8_t{255}}), {1}, {255});
  expect_values<int64_t>(tensor({int64_t{1} << 40}), {1}, {int64_t{1} << 40});
  expect_values<int64_t>(tensor(3), {}, {3});
  expect_values<int64_t>(tensor({{1, 2}, {3, 4}, {5, 6}}), {3, 2}, {1, 2, 3, 4, 5, 6});
  expect_values<int>(tensor({1.7, -1.7}, kInt), {2}, {1, -1});
  EXPECT_EQ(tensor({}).scalar_type(), kFloat);
  EXPECT_EQ(tensor({}).numel(), 0);
  // Mixed element types, which LibTorch refuses, promote as in Python.
  expect_values<float>(tensor({{1, 2}, {1.5, 2.5}}), {2, 2}, {1, 2, 1.5f, 2.5f});
  EXPECT_EQ(tensor({1, int64_t{2}}).scalar_type(), kLong);
  EXPECT_EQ(tensor({int16_t{1}, int8_t{2}}).scalar_type(), kShort);
  DefaultDtype doubles(kDouble);
  EXPECT_EQ(tensor({1.5f}).scalar_type(), kDouble);
  EXPECT_EQ(tensor(2.5).scalar_type(), kDouble);
}

TEST(FactoryOverloads, TensorFromRanges) {
  expect_values<float>(tensor(std::vector<float>{0.5f, 1.5f}), {2}, {0.5f, 1.5f});
  EXPECT_EQ(tensor(std::vector<double>{0.5}).scalar_type(), kFloat);
  expect_values<int64_t>(tensor(std::vector<int>{4, 5}), {2}, {4, 5});
  expect_values<uint8_t>(tensor(std::vector<uint8_t>{7}), {1}, {7});
  expect_values<int64_t>(tensor(IntArrayRef({8, 9})), {2}, {8, 9});
  const Tensor empty_long = tensor(std::vector<float>{}, kLong);
  EXPECT_EQ(empty_long.scalar_type(), kLong);
  EXPECT_EQ(empty_long.sizes(), IntArrayRef({0}));
  // The tensor owns a copy: changing the vector afterwards does not change it.
  std::vector<int64_t> source{1, 2};
  const Tensor t = tensor(source);
  source[0] = 9;
  expect_values<int64_t>(t, {2}, {1, 2});
}

TEST(FactoryOverloads, FillsInferTheirDtypeAndHonourTheDefault) {
  EXPECT_EQ(full({2, 2}, 7).scalar_type(), kLong);
  EXPECT_EQ(full({2}, 1.5).scalar_type(), kFloat);
  EXPECT_EQ(full({2}, true).scalar_type(), kBool);
  expect_values<double>(full({2}, 3, kDouble), {2}, {3, 3});
  expect_values<float>(zeros(std::vector<int64_t>{2, 3}), {2, 3}, {0, 0, 0, 0, 0, 0});
  expect_values<float>(zeros({}), {}, {0});
  // scalar_tensor makes the default dtype, integers too (LibTorch).
  EXPECT_EQ(scalar_tensor(3).scalar_type(), kFloat);
  expect_values<float>(scalar_tensor(3), {}, {3});
  DefaultDtype doubles(kDouble);
  EXPECT_EQ(ones({2}).scalar_type(), kDouble);
  EXPECT_EQ(full({2}, 1.5).scalar_type(), kDouble);
  EXPECT_EQ(eye(2).scalar_type(), kDouble);
  // A floating Scalar joins integers as the default dtype.
  EXPECT_EQ((tensor({1, 2}) + 1.5).scalar_type(), kDouble);
}

TEST(FactoryOverloads, EmptyStridedAndEye) {
  const Tensor s = empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(s.strides(), IntArrayRef({1, 2}));
  EXPECT_FALSE(s.is_contiguous());
  s.fill_(1.5);
  expect_values<float>(s, {2, 3}, {1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f});
  expect_values<int64_t>(empty_strided({2, 2}, {2, 1}, kLong).zero_(), {2, 2}, {0, 0, 0, 0});
  // Overlapping strides are accepted, as LibTorch's.
  EXPECT_EQ(empty_strided({3, 2}, {0, 1}).strides(), IntArrayRef({0, 1}));
  EXPECT_THROW(empty_strided({2, 3}, {1}), ValueError);
  expect_values<int>(eye(3, 2, kInt), {3, 2}, {1, 0, 0, 1, 0, 0});
  expect_values<bool>(eye(2, kBool), {2, 2}, {true, false, false, true});
}

TEST(FactoryOverloads, RandintAndRandpermDefaultToLongUnlessOptionsComeWithoutADtype) {
  manual_seed(11);
  const Tensor i = randint(10, {1000});
  EXPECT_EQ(i.scalar_type(), kLong);
  EXPECT_EQ(i.min().item<int64_t>(), 0);
  EXPECT_EQ(i.max().item<int64_t>(), 9);
  const Tensor r = randint(5, 8, {1000});
  EXPECT_EQ(r.min().item<int64_t>(), 5);
  EXPECT_EQ(r.max().item<int64_t>(), 7);
  // LibTorch's `options = kLong` default: options without a dtype give the default dtype.
  EXPECT_EQ(randint(0, 10, {3}, device(kCPU)).scalar_type(), kFloat);
  EXPECT_EQ(randint(4, {3}, dtype(kByte)).scalar_type(), kByte);
  const Tensor perm = randperm(50);
  EXPECT_EQ(perm.scalar_type(), kLong);
  std::vector<int64_t> values = perm.to_vector<int64_t>();
  EXPECT_FALSE(std::is_sorted(values.begin(), values.end()));
  std::sort(values.begin(), values.end());
  for (int64_t k = 0; k < 50; ++k) EXPECT_EQ(values[k], k);
  EXPECT_EQ(randperm(4, kInt).scalar_type(), kInt);
  EXPECT_EQ(randperm(3, device(kCPU)).scalar_type(), kLong);
  expect_values<double>(randperm(5, kDouble).sum(), {}, {10});
  EXPECT_EQ(randperm(0).numel(), 0);
}

TEST(FactoryOverloads, LikeFactoriesTakeOptions) {
  const Tensor x = tensor({{1.5f, 2.f}, {3.f, 4.f}});
  const Tensor ints = tensor({1, 2, 3});
  expect_values<int>(ones_like(x, kInt), {2, 2}, {1, 1, 1, 1});
  expect_values<int64_t>(full_like(ints, 2.5), {3}, {2, 2, 2});
  expect_values<double>(full_like(x, 2.5, kDouble), {2, 2}, {2.5, 2.5, 2.5, 2.5});
  EXPECT_TRUE(ones_like(x, requires_grad()).requires_grad());
  EXPECT_EQ(empty_like(ints, kDouble).scalar_type(), kDouble);
  EXPECT_EQ(rand_like(x, kDouble).scalar_type(), kDouble);
  const Tensor r = randint_like(x, 10);
  EXPECT_EQ(r.scalar_type(), kFloat);
  EXPECT_TRUE(r.eq(r.floor()).all().item<bool>());
  const Tensor between = randint_like(ints, 3, 5);
  EXPECT_EQ(between.scalar_type(), kLong);
  EXPECT_GE(between.min().item<int64_t>(), 3);
  EXPECT_LE(between.max().item<int64_t>(), 4);
  EXPECT_THROW(empty_like(x, memory_format(MemoryFormat::Contiguous), MemoryFormat::Contiguous),
               ValueError);
}

}  // namespace
}  // namespace ember
