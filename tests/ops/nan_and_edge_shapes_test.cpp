// NaN and edge-shape behaviour of ops the differential test against LibTorch (tests/diff) found
// differing from PyTorch: relu and clamp with NaN, 0-dim tensors in topk/sort/flatten/squeeze
// and reductions, index_select with an empty result, addmm with an empty inner dim.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(NaN, ReluKeepsNaN) {
  std::vector<double> r = relu(tensor({kNaN, -1.0, 2.0})).to_vector<double>();
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 0.0);
  EXPECT_EQ(r[2], 2.0);
}

TEST(NaN, ClampWithANaNBoundIsNaN) {
  // With both bounds, a NaN one makes every element NaN (PyTorch's clamp); an int tensor
  // promotes to float32 for it.
  for (const Tensor& c : {clamp(tensor({1.0, 5.0}), kNaN, 2.0), clamp(tensor({1, 5}), 0, kNaN)})
    for (double v : c.to_vector<double>()) EXPECT_TRUE(std::isnan(v));
  expect_values<double>(clamp(tensor({1.0, 5.0}), 2.0, std::nullopt), {2}, {2.0, 5.0});
}

TEST(ZeroDim, TopkAndSortReturnTheElementWhateverK) {
  Tensor x = scalar_tensor(1.5);
  for (int64_t k : {0, 1}) {
    auto [values, indices] = topk(x, k);
    EXPECT_EQ(values.dim(), 0);
    EXPECT_EQ(values.item<float>(), 1.5f);
    EXPECT_EQ(indices.item<int64_t>(), 0);
  }
  EXPECT_EQ(std::get<0>(sort(x)).item<float>(), 1.5f);
}

TEST(ZeroDim, DimsAreCheckedAgainstMinusOneAndZero) {
  Tensor x = scalar_tensor(2.0);
  EXPECT_NE(error_of<IndexError>([&] { x.flatten(-1, 1); }).find("Dimension out of range"),
            std::string::npos);
  EXPECT_NE(error_of<IndexError>([&] { x.squeeze(-2); }).find("Dimension out of range"),
            std::string::npos);
  EXPECT_EQ(x.squeeze(0).dim(), 0);
  EXPECT_EQ(x.flatten(0, -1).sizes(), IntArrayRef({1}));
  EXPECT_EQ(error_of<ValueError>([&] {
              sum(x, {0, -1});
            }),
            "[sum] dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(sum(x, {0}).item<double>(), 2.0);
}

TEST(IndexSelect, ChecksIndicesEvenWhenTheResultIsEmpty) {
  // The result [0, 1] is empty, but index 5 does not exist in dim 1 (size 2).
  EXPECT_EQ(error_of<IndexError>([] {
              index_select(zeros({0, 2}), 1, tensor({5}));
            }),
            "[index_select] index 5 is out of bounds for dimension 1 with size 2");
  EXPECT_EQ(index_select(zeros({0, 2}), 1, tensor({1})).sizes(), IntArrayRef({0, 1}));
}

TEST(Addmm, EmptyInnerDimIgnoresAlpha) {
  // k == 0: no product to scale (BLAS's and PyTorch's rule), so a NaN alpha changes nothing.
  Tensor r = addmm(ones({2, 1}), zeros({2, 0}), zeros({0, 1}), 2, kNaN);
  expect_values<float>(r, {2, 1}, {2.f, 2.f});
}

}  // namespace
}  // namespace ember
