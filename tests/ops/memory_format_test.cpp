// Strides as PyTorch keeps them (Note [Preserved strides]): clone, to, the *_like factories and
// elementwise results keep a non-contiguous input's layout; the memory formats lay tensors out
// as asked. Strides from PyTorch 1.13.
#include <gtest/gtest.h>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::expect_values;

// A dense [3, 2] tensor with strides [1, 3].
Tensor transposed() { return arange(6, kFloat).view({2, 3}).t(); }
// A dense [4, 2, 3] tensor with strides [1, 12, 4].
Tensor permuted() { return arange(24, kFloat).view({2, 3, 4}).permute({2, 0, 1}); }

TEST(PreservedStrides, CopiesOfADenseTensorKeepItsStrides) {
  const Tensor t = transposed();
  EXPECT_EQ(t.clone().strides(), IntArrayRef({1, 3}));
  expect_values<float>(t.clone(), {3, 2}, {0, 3, 1, 4, 2, 5});
  EXPECT_EQ(t.to(kDouble).strides(), IntArrayRef({1, 3}));
  expect_values<double>(t.to(kDouble), {3, 2}, {0, 3, 1, 4, 2, 5});
  EXPECT_EQ(t.to(t.options().dtype(kLong)).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(empty_like(t).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(ones_like(t, kInt).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(rand_like(t).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(permuted().clone().strides(), IntArrayRef({1, 12, 4}));
  EXPECT_EQ(zeros_like(permuted()).strides(), IntArrayRef({1, 12, 4}));
  const Tensor s = empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(s.clone().strides(), IntArrayRef({1, 2}));
}

TEST(PreservedStrides, ANonDenseTensorIsCopiedDenselyInItsStrideOrder) {
  const Tensor gappy = arange(12, kFloat).view({3, 4}).narrow(1, 0, 2);  // strides [4, 1]
  EXPECT_EQ(gappy.clone().strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(gappy.to(kDouble).strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(gappy.t().clone().strides(), IntArrayRef({1, 2}));
  expect_values<float>(gappy.t().clone(), {2, 3}, {0, 4, 8, 1, 5, 9});
  EXPECT_EQ(permuted().narrow(2, 0, 2).clone().strides(), IntArrayRef({1, 8, 4}));
  const Tensor expanded = ones({3}).expand({2, 3});
  EXPECT_EQ(expanded.clone().strides(), IntArrayRef({3, 1}));
}

TEST(PreservedStrides, ElementwiseResultsFollowTheirOperands) {
  const Tensor t = transposed();
  EXPECT_EQ((t + 1).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ((1 - t).strides(), IntArrayRef({1, 3}));
  expect_values<float>(1 - t, {3, 2}, {1, -2, 0, -3, -1, -4});
  EXPECT_EQ(t.exp().strides(), IntArrayRef({1, 3}));
  EXPECT_EQ((t > 2).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(t.clamp(1, 3).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ((t.to(kInt) + t).strides(), IntArrayRef({1, 3}));
  // The first operand with a preference decides; a broadcast one has none.
  EXPECT_EQ((t + ones({3, 2})).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ((ones({3, 2}) + t).strides(), IntArrayRef({2, 1}));
  EXPECT_EQ((t + ones({2})).strides(), IntArrayRef({1, 3}));
  EXPECT_EQ((permuted() * 2).strides(), IntArrayRef({1, 12, 4}));
  EXPECT_EQ((permuted() + ones({2, 3})).strides(), IntArrayRef({1, 12, 4}));
  expect_values<float>(t * t, {3, 2}, {0, 9, 1, 16, 4, 25});
  const Tensor gappy = arange(12, kFloat).view({3, 4}).narrow(1, 0, 2);
  EXPECT_EQ((gappy + 1).strides(), IntArrayRef({2, 1}));
  EXPECT_EQ((gappy.t() + 1).strides(), IntArrayRef({1, 2}));
  EXPECT_EQ((ones({3}).expand({2, 3}) + 1).strides(), IntArrayRef({3, 1}));
  // Written in place, a transposed tensor keeps its own strides and gets the right values.
  const Tensor z = zeros({2, 3}).t();
  z.add_(arange(6, kFloat).view({3, 2}));
  expect_values<float>(z, {3, 2}, {0, 1, 2, 3, 4, 5});
}

TEST(MemoryFormats, ContiguousAsksForRowMajor) {
  const Tensor t = transposed();
  EXPECT_EQ(t.contiguous().strides(), IntArrayRef({2, 1}));
  expect_values<float>(t.contiguous(), {3, 2}, {0, 3, 1, 4, 2, 5});
  EXPECT_EQ(t.clone(MemoryFormat::Contiguous).strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(t.to(kDouble, false, false, MemoryFormat::Contiguous).strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(zeros_like(t, {}, MemoryFormat::Contiguous).strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(empty_like(t, kInt, MemoryFormat::Contiguous).strides(), IntArrayRef({2, 1}));
  EXPECT_FALSE(t.to(t.scalar_type(), false, false, MemoryFormat::Contiguous).is_same(t));
  const Tensor x = arange(6, kFloat).view({2, 3});
  EXPECT_TRUE(x.contiguous().is_same(x));
  EXPECT_TRUE(x.to(kFloat).is_same(x));
  EXPECT_TRUE(x.to(kCPU).is_same(x));
  EXPECT_FALSE(x.to(kFloat, false, true).is_same(x));
  EXPECT_THROW(x.contiguous(MemoryFormat::Preserve), ValueError);
}

TEST(MemoryFormats, ChannelsLast) {
  const Tensor images = ones({2, 3, 4, 5});
  const Tensor last = images.contiguous(MemoryFormat::ChannelsLast);
  EXPECT_EQ(last.strides(), IntArrayRef({60, 1, 15, 3}));
  EXPECT_TRUE(last.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(last.is_contiguous());
  EXPECT_FALSE(images.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(last.clone().strides(), IntArrayRef({60, 1, 15, 3}));
  EXPECT_EQ(empty_like(last, {}, MemoryFormat::Contiguous).strides(), IntArrayRef({60, 20, 5, 1}));
  EXPECT_EQ(empty({1, 2, 2, 2, 2}, {}, MemoryFormat::ChannelsLast3d).strides(),
            IntArrayRef({16, 1, 8, 4, 2}));
  EXPECT_FALSE(ones({2, 3}).is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_THROW(ones({2, 3}).contiguous(MemoryFormat::ChannelsLast), ValueError);
}

TEST(MemoryFormats, ToTakesLibTorchsOverloads) {
  const Tensor x = arange(6, kFloat).view({2, 3});
  EXPECT_EQ(x.to(TensorOptions(kDouble)).scalar_type(), kDouble);
  EXPECT_EQ(x.to(dtype(kInt).device(kCPU)).scalar_type(), kInt);
  EXPECT_TRUE(x.to(x.options()).is_same(x));
  EXPECT_TRUE(x.to(x.dtype()).is_same(x));
  EXPECT_TRUE(x.to("cpu").is_same(x));
  EXPECT_EQ(x.to(ones({1}, kLong)).scalar_type(), kLong);
  EXPECT_THROW(x.to(requires_grad()), ValueError);
}

}  // namespace
}  // namespace ember
