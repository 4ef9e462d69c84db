// LibTorch's methods that change a tensor's own geometry (t_, transpose_, squeeze_, unsqueeze_,
// resize_) and its element accessor; values as LibTorch 1.13 gives them.
#include <gtest/gtest.h>

#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

std::vector<int64_t> vec(IntArrayRef r) { return r.vec(); }

TEST(ViewsInPlace, TheHandleTakesTheViewsGeometry) {
  Tensor y = arange(6, kFloat32).view({2, 3});
  const Tensor alias = y;  // a copy of the handle sees the change too
  y.unsqueeze_(0);
  EXPECT_EQ(vec(alias.sizes()), (std::vector<int64_t>{1, 2, 3}));
  y.squeeze_().unsqueeze_(-1);
  EXPECT_EQ(vec(y.sizes()), (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ(vec(y.strides()), (std::vector<int64_t>{3, 1, 1}));
  y.squeeze_(2).t_();
  EXPECT_EQ(vec(y.strides()), (std::vector<int64_t>{1, 3}));
  test::expect_close(y, {3, 2}, {0, 3, 1, 4, 2, 5});
  y.transpose_(0, 1);
  test::expect_close(y, {2, 3}, {0, 1, 2, 3, 4, 5});
}

TEST(ViewsInPlace, RefusedUnderAutograd) {
  Tensor w = ones({2, 3}, TensorOptions().requires_grad(true));
  EXPECT_THROW(w.t_(), NotImplementedError);
  EXPECT_EQ(vec(w.sizes()), (std::vector<int64_t>{2, 3}));
}

TEST(Resize, KeepsTheElementsAndGrowsTheStorage) {
  Tensor r = arange(4, kFloat32);
  r.resize_({2});
  test::expect_close(r, {2}, {0, 1});
  r.resize_({2, 2});
  test::expect_close(r, {2, 2}, {0, 1, 2, 3});  // the storage still holds all four
  r.resize_({3, 5});
  EXPECT_EQ(vec(r.strides()), (std::vector<int64_t>{5, 1}));
  test::expect_close(r.flatten().narrow(0, 0, 4), {4}, {0, 1, 2, 3});
  r.resize_({0});
  EXPECT_EQ(r.numel(), 0);
  EXPECT_THROW(ones({2}, TensorOptions().requires_grad(true)).resize_({3}), Error);
}

TEST(Accessor, ReadsAndWritesThroughStrides) {
  Tensor x = arange(6, kFloat32).view({2, 3});
  auto a = x.accessor<float, 2>();
  EXPECT_EQ(a[1][2], 5.f);
  EXPECT_EQ(a.size(0), 2);
  EXPECT_EQ(a.stride(0), 3);
  a[0][1] = 42;
  test::expect_close(x, {2, 3}, {0, 42, 2, 3, 4, 5});
  Tensor t = x.t();
  auto at = t.accessor<float, 2>();
  EXPECT_EQ(at[2][1], 5.f);
  EXPECT_THROW((x.accessor<float, 3>()), Error);
  EXPECT_THROW((x.accessor<double, 2>()), TypeError);
}

TEST(TensorMetadata, LibTorchNames) {
  EXPECT_EQ(ones({1}).toString(), "CPUFloatType");
  EXPECT_EQ(ones({1}, kLong).toString(), "CPULongType");
  EXPECT_TRUE(ones({1}).is_signed());
  EXPECT_FALSE(ones({1}, kUInt8).is_signed());
  EXPECT_EQ(zeros({2, 3, 4}).ndimension(), 3);
  EXPECT_TRUE(zeros({2, 3}).is_same_size(ones({2, 3}, kInt32)));
  EXPECT_FALSE(zeros({2, 3}).is_same_size(ones({3, 2})));
  const Tensor x = tensor({1.7f, -1.7f});
  test::expect_close(x.toType(kInt32), {2}, {1, -1});
  EXPECT_EQ(x.type_as(ones({1}, kFloat64)).scalar_type(), kFloat64);
  EXPECT_TRUE(x.type_as(x).is_same(x));
  EXPECT_EQ(result_type(ones({2}, kInt32), ones({}, kFloat64)), kFloat64);
  EXPECT_EQ(result_type(ones({2}, kInt32), 2.5), kFloat32);
}

TEST(IndexFill, FillsTheSlicesAtThePositions) {
  for (Device device : test::all_devices()) {
    Tensor x = zeros({2, 3}, TensorOptions().device(device));
    x.index_fill_(1, tensor({int64_t{0}, int64_t{2}}).to(device), -2);
    test::expect_close(x, {2, 3}, {-2, 0, -2, -2, 0, -2});
    test::expect_close(ones({2, 2}).index_fill(0, tensor({int64_t{1}}), 5), {2, 2}, {1, 1, 5, 5});
    // On a GPU the kernel finds the bad index, and the next wait (here the copy to the CPU)
    // raises it (Note [Index errors found by GPU kernels]).
    EXPECT_THROW((void)x.index_fill_(0, tensor({int64_t{2}}).to(device), 1).cpu(), IndexError);
  }
}

TEST(ClampForms, OneSidedAndTensorBounds) {
  const Tensor x = tensor({-2.f, -0.5f, 0.5f, 3.f});
  test::expect_close(x.clamp_min(0.25), {4}, {0.25, 0.25, 0.5, 3});
  test::expect_close(x.clamp_max(-1), {4}, {-2, -1, -1, -1});
  test::expect_close(x.clamp_min(tensor({0.f, 0.f, 1.f, 1.f})), {4}, {0, 0, 1, 3});
  test::expect_close(x.clamp(full({4}, -1.f), tensor({0.f, 0.f, 0.f, 2.f})), {4}, {-1, -0.5, 0, 2});
  test::expect_close(x.clamp(tensor({1.f}), tensor({0.f})), {4}, {0, 0, 0, 0});  // min > max
  Tensor y = x.clone();
  y.clamp_max_(0.75).clamp_min_(tensor({0.5f}));
  test::expect_close(y, {4}, {0.5, 0.5, 0.5, 0.75});
  EXPECT_THROW(x.clamp(std::optional<Tensor>(), std::optional<Tensor>()), ValueError);
}

}  // namespace
}  // namespace ember
