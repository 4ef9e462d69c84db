// Tests of the shape ops (cat, stack, split, chunk, index_select, gather, scatter, masked_fill,
// one_hot, sort, argsort, topk). Expected values are worked out by hand and agree with
// PyTorch 1.13.
#include <algorithm>
#include <cmath>
#include <limits>

#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

// [[0, 1, 2], [3, 4, 5]] as float32.
Tensor grid2x3() { return arange(6, kFloat32).view({2, 3}); }

// ---------------------------------------------------------------- cat, stack

TEST(CatOps, JoinsAlongDimAndPromotes) {
  Tensor a = grid2x3();
  expect_values<float>(cat({a, a}, 0), {4, 3}, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  expect_values<float>(cat({a, ones({2, 1})}, -1), {2, 4}, {0, 1, 2, 1, 3, 4, 5, 1});
  // bool + int8 -> int8; float16 + int64 -> float16.
  Tensor b = cat({zeros({2}, kBool), ones({2}, kInt8)});
  EXPECT_EQ(b.dtype(), kInt8);
  expect_values<int>(b, {4}, {0, 0, 1, 1});
  EXPECT_EQ(cat({zeros({2}, kFloat16), ones({2}, kInt64)}).dtype(), kFloat16);
}

TEST(CatOps, NonContiguousInputs) {
  Tensor t = grid2x3().t();  // [[0, 3], [1, 4], [2, 5]]
  expect_values<float>(cat({t, t.slice(1, 0, 1)}, 1), {3, 3}, {0, 3, 0, 1, 4, 1, 2, 5, 2});
}

TEST(CatOps, SkipsLegacyEmptyButPromotesWithIt) {
  Tensor a = grid2x3();
  expect_values<float>(cat({zeros({0}), a}, 1), {2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor r = cat({zeros({0}, kInt64), ones({2}, kInt32)});
  EXPECT_EQ(r.dtype(), kInt64);
  expect_values<int64_t>(r, {2}, {1, 1});
  // Only legacy empties: an empty result, whatever the dim.
  Tensor e = cat({zeros({0}), zeros({0}, kInt32)}, 5);
  EXPECT_EQ(e.sizes(), IntArrayRef({0}));
  EXPECT_EQ(e.dtype(), kFloat32);
  // Other zero-size tensors take part normally.
  expect_values<float>(cat({zeros({2, 0}), a}, 1), {2, 3}, {0, 1, 2, 3, 4, 5});
}

TEST(CatOps, Errors) {
  Tensor a = grid2x3();
  EXPECT_EQ(error_of<ValueError>([] { cat({}); }), "[cat] expected a non-empty list of Tensors");
  EXPECT_EQ(error_of<ValueError>([&] {
              cat({a, scalar_tensor(1.0)});
            }),
            "[cat] zero-dimensional tensor (at position 1) cannot be concatenated");
  EXPECT_EQ(error_of<ValueError>([&] {
              cat({a, zeros({3})});
            }),
            "[cat] Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_EQ(error_of<ValueError>([&] {
              cat({a, zeros({2, 4})});
            }),
            "[cat] Sizes of tensors must match except in dimension 0. Expected size 3 but got "
            "size 4 for tensor number 1 in the list.");
  EXPECT_EQ(error_of<IndexError>([&] {
              cat({a, a}, 2);
            }),
            "[cat] Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(CatOps, StackAddsADim) {
  Tensor a = tensor({1, 2}), b = tensor({3, 4});
  expect_values<int64_t>(stack({a, b}), {2, 2}, {1, 2, 3, 4});
  expect_values<int64_t>(stack({a, b}, -1), {2, 2}, {1, 3, 2, 4});
  // 0-dim inputs and promotion.
  Tensor s = stack({scalar_tensor(1, kInt64), scalar_tensor(2.5)});
  EXPECT_EQ(s.dtype(), kFloat32);
  expect_values<float>(s, {2}, {1, 2.5});
  EXPECT_EQ(stack({zeros({0}), zeros({0})}).sizes(), IntArrayRef({2, 0}));
  EXPECT_EQ(error_of<ValueError>([] { stack({}); }),
            "[stack] stack expects a non-empty TensorList");
  EXPECT_EQ(error_of<ValueError>([] {
              stack({zeros({2, 3}), zeros({3, 2})});
            }),
            "[stack] stack expects each tensor to be equal size, but got [2, 3] at entry 0 and "
            "[3, 2] at entry 1");
  EXPECT_NE(error_of<IndexError>([] {
              stack({zeros({2}), zeros({2})}, 2);
            }).find("[stack]"),
            std::string::npos);
}

// ---------------------------------------------------------------- split, chunk

TEST(ShapeSplit, BySizeReturnsViews) {
  Tensor x = arange(5);
  std::vector<Tensor> p = split(x, 2);
  ASSERT_EQ(p.size(), 3u);
  expect_values<int64_t>(p[0], {2}, {0, 1});
  expect_values<int64_t>(p[1], {2}, {2, 3});
  expect_values<int64_t>(p[2], {1}, {4});
  EXPECT_TRUE(p[1].is_alias_of(x));
  // A size beyond the dim gives one piece; an empty dim with size 0 gives one empty piece.
  EXPECT_EQ(split(x, 9).size(), 1u);
  std::vector<Tensor> e = split(zeros({0}), 0);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].numel(), 0);
  // Negative dim on a transposed input.
  std::vector<Tensor> q = split(grid2x3().t(), 1, -1);  // columns of [[0, 3], [1, 4], [2, 5]]
  ASSERT_EQ(q.size(), 2u);
  expect_values<float>(q[1], {3, 1}, {3, 4, 5});
}

TEST(ShapeSplit, BySizes) {
  std::vector<Tensor> p = split(grid2x3(), {1, 2}, 1);
  ASSERT_EQ(p.size(), 2u);
  expect_values<float>(p[0], {2, 1}, {0, 3});
  expect_values<float>(p[1], {2, 2}, {1, 2, 4, 5});
  EXPECT_EQ(split(grid2x3(), {0, 3, 0}, 1)[2].sizes(), IntArrayRef({2, 0}));
}

TEST(ShapeSplit, Errors) {
  Tensor x = grid2x3();
  EXPECT_EQ(error_of<ValueError>([] { split(scalar_tensor(1.0), 1); }),
            "[split] split expects at least a 1-dimensional tensor");
  EXPECT_EQ(error_of<ValueError>([&] { split(x, -1, 1); }),
            "[split] split expects split_size be non-negative, but got split_size=-1");
  EXPECT_EQ(error_of<ValueError>([&] { split(x, 0, 1); }),
            "[split] split_size can only be 0 if dimension size is 0, but got dimension size of 3");
  EXPECT_EQ(error_of<ValueError>([&] {
              split(x, {1, 1}, 1);
            }),
            "[split] split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size "
            "at dimension 1), but got split_sizes=[1, 1]");
  EXPECT_EQ(error_of<ValueError>([&] {
              split(x, {1, -1, 3}, 1);
            }),
            "[split] split_with_sizes expects split_sizes have only non-negative entries, but got "
            "split_sizes=[1, -1, 3]");
  EXPECT_EQ(error_of<IndexError>([&] { split(x, 1, 2); }),
            "[split] Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(ShapeChunk, EvenAndUneven) {
  std::vector<Tensor> c = chunk(grid2x3(), 2, 1);
  ASSERT_EQ(c.size(), 2u);
  expect_values<float>(c[0], {2, 2}, {0, 1, 3, 4});
  expect_values<float>(c[1], {2, 1}, {2, 5});
  EXPECT_EQ(chunk(zeros({5}), 4).size(), 3u);  // pieces of ceil(5 / 4) = 2
  EXPECT_EQ(chunk(zeros({6}), 4).size(), 3u);
  std::vector<Tensor> e = chunk(zeros({0}), 3);  // an empty dim keeps the count
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[2].numel(), 0);
  EXPECT_EQ(error_of<ValueError>([] { chunk(zeros({2}), 0); }),
            "[chunk] chunk expects `chunks` to be greater than 0, got: 0");
  EXPECT_EQ(error_of<ValueError>([] { chunk(scalar_tensor(1.0), 1); }),
            "[chunk] chunk expects at least a 1-dimensional tensor");
}

// ---------------------------------------------------------------- index_select, gather

TEST(IndexSelect, PicksAlongDim) {
  Tensor x = grid2x3();
  expect_values<float>(index_select(x, 1, tensor({2, 0})), {2, 2}, {2, 0, 5, 3});
  expect_values<float>(index_select(x, -2, tensor({1, 1, 0})), {3, 3}, {3, 4, 5, 3, 4, 5, 0, 1, 2});
  // int32 indices, a 0-dim index, a non-contiguous input and a strided index.
  expect_values<float>(index_select(x, 1, tensor({2, 0}, kInt32)), {2, 2}, {2, 0, 5, 3});
  expect_values<float>(index_select(x, 1, scalar_tensor(1, kInt64)), {2, 1}, {1, 4});
  expect_values<float>(index_select(x.t(), 0, tensor({0, 1, 2}).slice(0, 0, 3, 2)), {2, 2},
                       {0, 3, 2, 5});
  expect_values<float>(index_select(scalar_tensor(5.0), 0, tensor({0})), {}, {5});
  EXPECT_EQ(index_select(zeros({2, 0}), 1, zeros({0}, kInt64)).sizes(), IntArrayRef({2, 0}));
}

TEST(IndexSelect, Errors) {
  Tensor x = grid2x3();
  EXPECT_EQ(error_of<IndexError>([&] { index_select(x, 1, tensor({3})); }),
            "[index_select] index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] { index_select(x, 1, tensor({-1})); }),
            "[index_select] index -1 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([] {
              index_select(zeros({2, 0}), 1, tensor({0}));
            }),
            "[index_select] index 0 is out of bounds for dimension 1 with size 0");
  EXPECT_EQ(error_of<TypeError>([&] { index_select(x, 0, tensor({0.0f})); }),
            "[index_select] index must be of dtype Long (int64) or Int (int32), got Float");
  EXPECT_EQ(error_of<IndexError>([&] { index_select(x, 1, tensor({{0}})); }),
            "[index_select] Index is supposed to be a vector, got a tensor of 2 dimensions");
  EXPECT_EQ(error_of<IndexError>([] {
              index_select(scalar_tensor(5.0), 0, tensor({0, 0}));
            }),
            "[index_select] a 0-dim tensor takes exactly one index, got 2");
  EXPECT_EQ(
      error_of<IndexError>([&] { index_select(x, 2, tensor({0})); }),
      "[index_select] Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(IndexGather, ReadsPerElement) {
  Tensor x = grid2x3();
  expect_values<float>(gather(x, 1, tensor({{2, 0}, {1, 1}})), {2, 2}, {2, 0, 4, 4});
  expect_values<float>(gather(x, 0, tensor({{1, 0, 1}})), {1, 3}, {3, 1, 5});
  // Non-contiguous self and index, negative dim.
  Tensor idx = tensor({{0, 9, 1}, {1, 9, 0}}).slice(1, 0, 3, 2);  // [[0, 1], [1, 0]]
  expect_values<float>(gather(x.t(), -1, idx), {2, 2}, {0, 3, 4, 1});
  // 0-dim cases.
  expect_values<float>(gather(scalar_tensor(5.0), 0, scalar_tensor(0, kInt64)), {}, {5});
  expect_values<float>(gather(tensor({5.0f}), 0, scalar_tensor(0, kInt64)), {}, {5});
  // An empty index gives an empty result of its shape without any shape check.
  EXPECT_EQ(gather(x, 1, zeros({0, 5}, kInt64)).sizes(), IntArrayRef({0, 5}));
  EXPECT_EQ(gather(x, 1, zeros({0}, kInt64)).sizes(), IntArrayRef({0}));
}

TEST(IndexGather, LargeRunsInParallel) {
  // Above the grain size the loop is threaded: every row reversed.
  const int64_t n = 70000;
  Tensor x = arange(2 * n, kFloat32).view({2, n});
  Tensor rev = sub(full({1, n}, n - 1, kInt64), arange(n).view({1, n})).expand({2, n});
  std::vector<float> got = gather(x, 1, rev).to_vector<float>();
  EXPECT_EQ(got[0], static_cast<float>(n - 1));
  EXPECT_EQ(got[n - 1], 0.0f);
  EXPECT_EQ(got[n], static_cast<float>(2 * n - 1));
}

TEST(IndexGather, Errors) {
  Tensor x = grid2x3();
  EXPECT_EQ(error_of<TypeError>([&] { gather(x, 1, tensor({{0}}, kInt32)); }),
            "[gather] index must be of dtype Long (int64), got Int");
  EXPECT_EQ(error_of<IndexError>([&] { gather(x, 1, tensor({{3}})); }),
            "[gather] index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] { gather(x, 1, tensor({{-1}})); }),
            "[gather] index -1 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<ValueError>([&] { gather(x, 1, tensor({0})); }),
            "[gather] Index tensor must have the same number of dimensions as self tensor (got 1 "
            "and 2)");
  EXPECT_EQ(error_of<ValueError>([&] {
              gather(x, 1, tensor({{0}, {0}, {0}}));
            }),
            "[gather] Size does not match at dimension 0: expected index [3, 1] to be smaller than "
            "self [2, 3] apart from dimension 1");
  EXPECT_EQ(error_of<IndexError>([&] { gather(x, 2, tensor({{0}})); }),
            "[gather] Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

// ---------------------------------------------------------------- scatter, scatter_add

TEST(IndexScatter, WritesPerElement) {
  Tensor x = grid2x3();
  Tensor r = scatter(x, 1, tensor({{2, 0}}), tensor({{10.0f, 20.0f, 30.0f}}));
  expect_values<float>(r, {2, 3}, {20, 1, 10, 3, 4, 5});
  expect_values<float>(x, {2, 3}, {0, 1, 2, 3, 4, 5});  // out of place
  expect_values<float>(scatter(x, 1, tensor({{2, 0}}), 7.5), {2, 3}, {7.5, 1, 7.5, 3, 4, 5});
  // The value takes self's dtype.
  expect_values<int64_t>(scatter(zeros({2, 3}, kInt64), 1, tensor({{2, 0}}), 7.5), {2, 3},
                         {7, 0, 7, 0, 0, 0});
  expect_values<bool>(scatter(zeros({2}, kBool), 0, tensor({1}), true), {2}, {false, true});
  // Non-contiguous self and src, negative dim: x.t() is [[0, 3], [1, 4], [2, 5]].
  Tensor src = tensor({{10.0f, 0.0f, 20.0f}, {30.0f, 0.0f, 40.0f}}).slice(1, 0, 3, 2);
  expect_values<float>(scatter(x.t(), -2, tensor({{2, 0}}), src), {3, 2}, {0, 20, 1, 4, 10, 5});
  expect_values<float>(scatter(scalar_tensor(5.0), 0, scalar_tensor(0, kInt64), scalar_tensor(1.0)),
                       {}, {1});
  expect_values<float>(scatter(x, 1, zeros({2, 0}, kInt64), 1.0), {2, 3}, {0, 1, 2, 3, 4, 5});
}

TEST(IndexScatter, AddAccumulatesDuplicates) {
  Tensor x = grid2x3();
  expect_values<float>(scatter_add(x, 1, tensor({{0, 0, 1}}), tensor({{10.0f, 20.0f, 30.0f}})),
                       {2, 3}, {30, 31, 2, 3, 4, 5});
  expect_values<bool>(scatter_add(zeros({3}, kBool), 0, tensor({1, 1}), tensor({true, false})), {3},
                      {false, true, false});
  Tensor h =
      scatter_add(zeros({3}, kFloat16), 0, tensor({1, 1}), tensor({1.5f, 2.0f}).to(kFloat16));
  expect_values<float>(h.to(kFloat32), {3}, {0, 3.5, 0});
}

TEST(IndexScatter, Errors) {
  Tensor x = grid2x3();
  EXPECT_EQ(error_of<TypeError>([&] {
              scatter(x, 1, tensor({{2, 0}}), tensor({{10, 20, 30}}));
            }),
            "[scatter] Expected self.dtype to be equal to src.dtype (got Float and Long)");
  EXPECT_EQ(error_of<TypeError>([&] {
              scatter(x, 1, tensor({{2, 0}}, kInt32), 1.0);
            }),
            "[scatter] index must be of dtype Long (int64), got Int");
  EXPECT_EQ(error_of<IndexError>([&] { scatter(x, 1, tensor({{3}}), 1.0); }),
            "[scatter] index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] {
              scatter_add(x, 1, tensor({{5}}), ones({1, 1}));
            }),
            "[scatter_add] index 5 is out of bounds for dimension 1 with size 3");
  EXPECT_EQ(error_of<ValueError>([&] { scatter(x, 1, tensor({0}), 1.0); }),
            "[scatter] Index tensor must have the same number of dimensions as self tensor (got 1 "
            "and 2)");
  EXPECT_EQ(error_of<ValueError>([&] {
              scatter(x, 1, tensor({{0, 0}}), ones({2}));
            }),
            "[scatter] Index tensor must have the same number of dimensions as src tensor (got 2 "
            "and 1)");
  EXPECT_EQ(error_of<ValueError>([&] {
              scatter(x, 1, tensor({{0, 0}}), ones({1, 1}));
            }),
            "[scatter] Size does not match at dimension 1: expected index [1, 2] to be smaller "
            "than src [1, 1]");
  EXPECT_EQ(error_of<ValueError>([&] {
              scatter(x, 0, tensor({{0, 0, 0, 0}}), 1.0);
            }),
            "[scatter] Size does not match at dimension 1: expected index [1, 4] to be smaller "
            "than self [2, 3] apart from dimension 0");
  EXPECT_EQ(error_of<IndexError>([&] { scatter(x, -3, tensor({{0}}), 1.0); }),
            "[scatter] Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}

// ---------------------------------------------------------------- masked_fill, one_hot

TEST(IndexMaskedFill, BroadcastsTheMask) {
  Tensor x = grid2x3();
  Tensor mask = tensor({true, false, true});
  expect_values<float>(masked_fill(x, mask, -1), {2, 3}, {-1, 1, -1, -1, 4, -1});
  expect_values<float>(x.masked_fill(tensor(true), 9), {2, 3}, {9, 9, 9, 9, 9, 9});
  // The value takes x's dtype; a non-contiguous x.
  expect_values<int64_t>(masked_fill(zeros({3}, kInt64), mask, 2.7), {3}, {2, 0, 2});
  expect_values<float>(masked_fill(x.t(), tensor({true, false}), 0), {3, 2}, {0, 3, 0, 4, 0, 5});
  // A larger mask broadcasts x too (out of place, as in PyTorch).
  expect_values<float>(masked_fill(zeros({3}), ones({2, 3}, kBool), -1), {2, 3},
                       {-1, -1, -1, -1, -1, -1});
  Tensor y = grid2x3();
  y.masked_fill_(mask, 0);
  expect_values<float>(y, {2, 3}, {0, 1, 0, 0, 4, 0});
}

TEST(IndexMaskedFill, Errors) {
  Tensor x = grid2x3();
  EXPECT_EQ(error_of<TypeError>([&] {
              masked_fill(x, tensor({1, 0, 1}), -1);
            }),
            "[masked_fill] masked_fill only supports boolean masks, but got mask with dtype Long");
  EXPECT_NE(error_of<ValueError>([&] {
              masked_fill(x, tensor({true, false}), -1);
            }).find("[masked_fill] The size of tensor a (3) must match the size of tensor b (2)"),
            std::string::npos);
}

TEST(IndexOneHot, InfersOrTakesClasses) {
  expect_values<int64_t>(one_hot(tensor({0, 2, 1})), {3, 3}, {1, 0, 0, 0, 0, 1, 0, 1, 0});
  expect_values<int64_t>(one_hot(tensor({0, 2, 1}), 4), {3, 4},
                         {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0});
  expect_values<int64_t>(one_hot(scalar_tensor(2, kInt64)), {3}, {0, 0, 1});
  expect_values<int64_t>(one_hot(tensor({{1}, {0}})), {2, 1, 2}, {0, 1, 1, 0});
  expect_values<int64_t>(one_hot(tensor({0, 9, 1}).slice(0, 0, 3, 2)), {2, 2}, {1, 0, 0, 1});
  EXPECT_EQ(one_hot(zeros({0}, kInt64), 3).sizes(), IntArrayRef({0, 3}));
}

TEST(IndexOneHot, Errors) {
  EXPECT_EQ(error_of<TypeError>([] {
              one_hot(tensor({0, 1}, kInt32));
            }),
            "[one_hot] one_hot is only applicable to index tensor of dtype Long (int64), got Int");
  EXPECT_EQ(error_of<ValueError>([] {
              one_hot(tensor({0, 2, 1}), 2);
            }),
            "[one_hot] Class values must be smaller than num_classes, got 2 with num_classes=2");
  EXPECT_EQ(error_of<ValueError>([] {
              one_hot(tensor({0, -1, 1}), 3);
            }),
            "[one_hot] Class values must be non-negative, got -1");
  EXPECT_EQ(error_of<ValueError>([] { one_hot(zeros({0}, kInt64)); }),
            "[one_hot] Can not infer total number of classes from empty tensor.");
  EXPECT_EQ(error_of<ValueError>([] { one_hot(zeros({0}, kInt64), 0); }),  // as PyTorch
            "[one_hot] Can not infer total number of classes from empty tensor.");
  EXPECT_EQ(error_of<ValueError>([] { one_hot(tensor({0}), -2); }),
            "[one_hot] num_classes must be -1 (inferred) or non-negative, got -2");
}

// ---------------------------------------------------------------- sort, argsort, topk

const float kFloatNaN = std::numeric_limits<float>::quiet_NaN();
const float kFloatInf = std::numeric_limits<float>::infinity();

// Compares float values where NaN must match NaN.
void expect_floats(const Tensor& t, const std::vector<float>& expected) {
  std::vector<float> got = t.to_vector<float>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
    else EXPECT_EQ(got[i], expected[i]) << "at " << i;
  }
}

TEST(SortOps, NaNLargestAndStable) {
  Tensor a = tensor({3.0f, kFloatNaN, 1.0f, -0.0f, 0.0f, kFloatInf, 1.0f, kFloatNaN, -kFloatInf});
  auto [v, i] = sort(a);
  expect_floats(v, {-kFloatInf, 0, 0, 1, 1, 3, kFloatInf, kFloatNaN, kFloatNaN});
  expect_values<int64_t>(i, {9}, {8, 3, 4, 2, 6, 0, 5, 1, 7});
  auto [vd, id] = sort(a, 0, /*descending=*/true);
  expect_floats(vd, {kFloatNaN, kFloatNaN, kFloatInf, 3, 1, 1, 0, 0, -kFloatInf});
  expect_values<int64_t>(id, {9}, {1, 7, 5, 0, 2, 6, 3, 4, 8});
  // Stable descending keeps equal elements in their order.
  auto [vi, ii] = sort(tensor({2, 1, 2, 1, 0}), -1, true);
  expect_values<int64_t>(vi, {5}, {2, 2, 1, 1, 0});
  expect_values<int64_t>(ii, {5}, {0, 2, 1, 3, 4});
  auto [vb, ib] = sort(tensor({true, false, true}));
  expect_values<bool>(vb, {3}, {false, true, true});
  expect_values<int64_t>(ib, {3}, {1, 0, 2});
  Tensor h = std::get<0>(sort(tensor({1.0f, kFloatNaN, 2.0f}).to(kFloat16), 0, true));
  expect_floats(h, {kFloatNaN, 2, 1});
}

TEST(SortOps, AlongAnyDimAndShape) {
  Tensor x = tensor({{3, 1, 2}, {0, 5, 4}});
  auto [v, i] = sort(x, 0);
  expect_values<int64_t>(v, {2, 3}, {0, 1, 2, 3, 5, 4});
  expect_values<int64_t>(i, {2, 3}, {1, 0, 0, 0, 1, 1});
  expect_values<int64_t>(argsort(x, 0, true), {2, 3}, {0, 1, 1, 1, 0, 0});
  // Non-contiguous input: x.t() is [[3, 0], [1, 5], [2, 4]].
  expect_values<int64_t>(std::get<0>(sort(x.t(), -1, true)), {3, 2}, {3, 0, 5, 1, 4, 2});
  auto [s, si] = sort(scalar_tensor(5.0));
  expect_values<float>(s, {}, {5});
  expect_values<int64_t>(si, {}, {0});
  EXPECT_EQ(std::get<1>(sort(zeros({2, 0}), 0)).sizes(), IntArrayRef({2, 0}));
  EXPECT_EQ(error_of<IndexError>([] { sort(scalar_tensor(5.0), 1); }),
            "[sort] Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(SortOps, ManySlicesInParallel) {
  // 4096 rows of 16: enough slices for several threads; each row is 15..0.
  Tensor x = sub(full({4096, 16}, 15, kInt64), arange(16).view({1, 16}).expand({4096, 16}));
  std::vector<int64_t> idx = argsort(x).to_vector<int64_t>();
  for (int64_t r : {int64_t{0}, int64_t{2048}, int64_t{4095}})
    for (int64_t j = 0; j < 16; ++j) EXPECT_EQ(idx[r * 16 + j], 15 - j);
}

TEST(SortTopk, LargestSmallestSorted) {
  Tensor a = tensor({3.0f, kFloatNaN, 1.0f, 5.0f, kFloatInf});
  auto [v, i] = topk(a, 3);
  expect_floats(v, {kFloatNaN, kFloatInf, 5});
  expect_values<int64_t>(i, {3}, {1, 4, 3});
  auto [vs, is] = topk(a, 2, 0, /*largest=*/false);
  expect_floats(vs, {1, 3});
  expect_values<int64_t>(is, {2}, {2, 0});
  auto [vt, it] = topk(tensor({1, 3, 3, 2}), 2);
  expect_values<int64_t>(vt, {2}, {3, 3});
  expect_values<int64_t>(it, {2}, {1, 2});
  // Along dim 0 of a non-contiguous input: x.t() is [[1, 3], [2, 0]] -> column maxima.
  auto [vc, ic] = topk(tensor({{1, 2}, {3, 0}}).t(), 1, 0);
  expect_values<int64_t>(vc, {1, 2}, {2, 3});
  expect_values<int64_t>(ic, {1, 2}, {1, 0});
  // sorted=false: the same k elements, in some order.
  auto [vu, iu] = topk(tensor({4, 9, 1, 7, 8}), 3, 0, true, false);
  std::vector<int64_t> got = vu.to_vector<int64_t>();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(iu.numel(), 3);
  expect_values<int64_t>(std::get<0>(topk(scalar_tensor(5, kInt64), 1)), {}, {5});
  EXPECT_EQ(std::get<0>(topk(tensor({1, 2}), 0)).sizes(), IntArrayRef({0}));
  EXPECT_EQ(std::get<1>(topk(zeros({2, 0}), 0)).sizes(), IntArrayRef({2, 0}));
}

TEST(SortTopk, Errors) {
  EXPECT_EQ(error_of<IndexError>([] {
              topk(tensor({1, 3, 3, 2}), 5);
            }),
            "[topk] selected index k out of range: k = 5 but dimension 0 has size 4");
  EXPECT_EQ(error_of<IndexError>([] {
              topk(tensor({1, 3}), -1);
            }),
            "[topk] selected index k out of range: k = -1 but dimension 0 has size 2");
  EXPECT_EQ(error_of<IndexError>([] { topk(scalar_tensor(5, kInt64), 2); }),
            "[topk] selected index k out of range: k = 2 but dimension 0 has size 1");
  EXPECT_EQ(error_of<TypeError>([] {
              topk(tensor({true, false}), 1);
            }),
            "[topk] not implemented for 'Bool'");
}

}  // namespace
}  // namespace ember
