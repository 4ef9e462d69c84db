// flip, repeat, tril and triu: values, dtypes, strided inputs, grad_fn names and errors. Expected
// values were worked out by hand and agree with PyTorch 1.13 (torch.Tensor.flip / repeat / tril /
// triu on the same inputs).
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

// [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] as float32.
Tensor grid3x4() { return arange(12, kFloat32).view({3, 4}); }

TEST(Flip, ReversesEachNamedDim) {
  expect_values<float>(flip(grid3x4(), {0, 1}), {3, 4}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  expect_values<float>(grid3x4().flip({-1}), {3, 4}, {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
  // A transposed input, an integer dtype, and no dims at all (a copy).
  expect_values<int64_t>(arange(6).view({2, 3}).t().flip({0}), {3, 2}, {2, 5, 1, 4, 0, 3});
  Tensor x = grid3x4();
  Tensor same = flip(x, {});
  expect_values<float>(same, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_FALSE(same.is_alias_of(x));
  expect_values<float>(flip(scalar_tensor(2.0f), {0}), {}, {2});
}

TEST(Flip, Errors) {
  EXPECT_EQ(error_of<ValueError>([] {
              flip(grid3x4(), {0, -2});
            }),
            "[flip] dim 0 appears multiple times in the list of dims");
  EXPECT_NE(error_of<IndexError>([] { flip(grid3x4(), {2}); }).find("Dimension out of range"),
            std::string::npos);
}

TEST(Repeat, TilesAndAddsLeadingDims) {
  Tensor x = tensor({{1, 2}, {3, 4}});
  expect_values<int64_t>(x.repeat({2, 1, 3}), {2, 2, 6},
                         {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
  expect_values<int64_t>(x.t().repeat({1, 2}), {2, 4}, {1, 3, 1, 3, 2, 4, 2, 4});
  expect_values<float>(scalar_tensor(1.5f).repeat({3}), {3}, {1.5f, 1.5f, 1.5f});
  EXPECT_EQ(x.repeat({0, 2}).sizes(), IntArrayRef({0, 4}));
  // All ones still copy, as PyTorch's repeat always does.
  Tensor same = x.repeat({1, 1});
  EXPECT_FALSE(same.is_alias_of(x));
  expect_values<int64_t>(same, {2, 2}, {1, 2, 3, 4});
}

TEST(Repeat, GradientSumsTheCopies) {
  // d/dx sum(repeat(x, {2, 2}) * w): each x[i][j] collects the four weights its copies met.
  Tensor x = arange(6, kFloat32).view({2, 3}).requires_grad_();
  Tensor y = x.repeat({2, 2});
  EXPECT_EQ(y.grad_fn()->name(), "RepeatBackward0");
  (y * arange(24, kFloat32).view({4, 6})).sum().backward();
  expect_values<float>(x.grad(), {2, 3}, {30, 34, 38, 54, 58, 62});
}

TEST(Repeat, Errors) {
  EXPECT_EQ(error_of<ValueError>([] { grid3x4().repeat({2}); }),
            "[repeat] Number of dimensions of repeat dims can not be smaller than number of "
            "dimensions of tensor (got [2] for a tensor of shape [3, 4])");
  EXPECT_EQ(error_of<ValueError>([] {
              grid3x4().repeat({-1, 1});
            }),
            "[repeat] repeats must be non-negative, got [-1, 1]");
  EXPECT_NE(error_of<ValueError>([] {
              grid3x4().repeat({int64_t{1} << 62, 1});
            }).find("gives a size past int64"),
            std::string::npos);
}

TEST(Triangle, KeepsOneSideOfTheDiagonal) {
  expect_values<float>(grid3x4().tril(), {3, 4}, {0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0});
  expect_values<float>(tril(grid3x4(), -1), {3, 4}, {0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0});
  expect_values<float>(triu(grid3x4(), 1), {3, 4}, {0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11});
  expect_values<float>(triu(grid3x4(), -2), {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // Batched, a bool dtype, and NaN outside the triangle (zeroed, not kept).
  Tensor b = ones({2, 2, 2}, kBool).tril();
  expect_values<bool>(b, {2, 2, 2}, {true, false, true, true, true, false, true, true});
  Tensor n = full({2, 2}, NAN).triu();
  EXPECT_TRUE(std::isnan(n[0][1].item<float>()));
  EXPECT_EQ(n[1][0].item<float>(), 0.0f);
}

TEST(Triangle, GradientKeepsTheTriangleAndNames) {
  Tensor x = ones({2, 3}).requires_grad_();
  Tensor y = x.triu();
  EXPECT_EQ(y.grad_fn()->name(), "TriuBackward0");
  EXPECT_EQ(x.tril().grad_fn()->name(), "TrilBackward0");
  y.sum().backward();
  expect_values<float>(x.grad(), {2, 3}, {1, 1, 1, 0, 1, 1});
}

TEST(Triangle, Errors) {
  EXPECT_EQ(error_of<ValueError>([] { tril(zeros({3})); }),
            "[tril] input tensor must have at least 2 dimensions, got a tensor of shape [3]");
  EXPECT_EQ(error_of<ValueError>([] { triu(scalar_tensor(1.0)); }),
            "[triu] input tensor must have at least 2 dimensions, got a tensor of shape []");
}

// Every device runs the ops through shared kernels: the same values there.
TEST(RearrangeOnDevices, SameValuesEverywhere) {
  for (Device d : test::all_devices()) {
    Tensor x = grid3x4().to(d);
    expect_values<float>(x.flip({0}), {3, 4}, {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
    expect_values<float>(x.narrow(1, 0, 2).repeat({1, 2}), {3, 4},
                         {0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9});
    expect_values<float>(x.tril(1), {3, 4}, {0, 1, 0, 0, 4, 5, 6, 0, 8, 9, 10, 11});
    EXPECT_EQ(x.triu().device(), d);
  }
}

}  // namespace
}  // namespace ember
