// Gradients at the edges the differential test against LibTorch (tests/diff) found differing
// from PyTorch: zeros, NaN, 0-dim and empty tensors, bool exponents, 16-bit precision. Expected
// values are worked out by hand (PyTorch's formulas in comments).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

using test::expect_close;
using test::expect_values;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor leaf(NestedList values, ScalarType dtype = kFloat64) {
  return tensor(values, dtype).requires_grad_();
}

TEST(EdgeGradients, MaxAlongTheDimOfAZeroDimTensor) {
  Tensor x = scalar_tensor(1.5, kFloat64).requires_grad_();
  auto [values, indices] = max(x, 0, /*keepdim=*/true);
  values.backward();  // used to read past the (empty) list of reduced dims
  EXPECT_EQ(x.grad().item<double>(), 1.0);
  EXPECT_EQ(indices.item<int64_t>(), 0);
}

TEST(EdgeGradients, ProdWithZeros) {
  // d prod / dx_i is the product of the others: only a lone zero gets a non-zero gradient.
  Tensor x = leaf({2.0, 0.0, 3.0});
  prod(x).backward();
  expect_values<double>(x.grad(), {3}, {0, 6, 0});
  Tensor y = leaf({{0.0, 0.0, 2.0}, {1.0, 2.0, 3.0}});
  prod(y, 1).backward(tensor({1.0, 1.0}, kFloat64));
  expect_values<double>(y.grad(), {2, 3}, {0, 0, 0, 6, 3, 2});
}

TEST(EdgeGradients, ZeroDimAndEmptyResultsStillRecord) {
  Tensor x = scalar_tensor(4.0, kFloat64).requires_grad_();
  Tensor t = x.transpose(0, -1);
  ASSERT_TRUE(t.requires_grad());
  t.backward();
  EXPECT_EQ(x.grad().item<double>(), 1.0);

  Tensor y = leaf({1.0, 2.0});
  Tensor none = std::get<0>(topk(y, 0));  // an empty result: its gradient is zeros
  ASSERT_TRUE(none.requires_grad());
  none.backward(empty({0}, kFloat64));
  expect_values<double>(y.grad(), {2}, {0, 0});

  Tensor z = leaf({3.0});
  Tensor legacy = empty({0}, kFloat64).requires_grad_();
  cat({legacy, z}).backward(tensor({5.0}, kFloat64));
  expect_values<double>(z.grad(), {1}, {5});
  ASSERT_TRUE(legacy.grad().defined());  // the legacy empty input gets an empty gradient
  EXPECT_EQ(legacy.grad().sizes(), IntArrayRef({0}));
}

TEST(EdgeGradients, PowAtZeroAndWithBoolExponents) {
  // d/de x^e = x^e log x, 0 where x == 0 and e >= 0; d/dx = e x^(e-1), 0 where e == 0.
  Tensor x = leaf({0.0, 0.0, 2.0}), e = leaf({2.0, 0.0, 3.0});
  pow(x, e).backward(ones({3}, kFloat64));
  expect_close(e.grad(), {3}, {0, 0, 8 * std::log(2.0)}, 1e-15, 0);
  expect_values<double>(x.grad(), {3}, {0, 0, 12});
  // An integer base: log 2 in float64, not in float32.
  Tensor f = leaf({1.0});
  pow(2, f).backward(ones({1}, kFloat64));
  expect_close(f.grad(), {1}, {2 * std::log(2.0)}, 1e-15, 0);
  // Bool exponents are the numbers 0 and 1.
  Tensor b = leaf({0.0, 3.0});
  pow(b, false).backward(ones({2}, kFloat64));
  expect_values<double>(b.grad(), {2}, {0, 0});
  Tensor c = leaf({2.0, 0.0});
  pow(c, tensor({true, false})).backward(ones({2}, kFloat64));
  expect_values<double>(c.grad(), {2}, {1, 0});
}

TEST(EdgeGradients, MaximumMinimumLoseTheirShareOnlyToAWinner) {
  // PyTorch: self gets g (g / 2 on ties) unless self < other; NaN compares false, so both
  // operands of a NaN comparison get all of it.
  Tensor x = leaf({kNaN, 1.0, 2.0}), y = leaf({0.0, 2.0, 2.0});
  maximum(x, y).backward(ones({3}, kFloat64));
  expect_values<double>(x.grad(), {3}, {1, 0, 0.5});
  expect_values<double>(y.grad(), {3}, {1, 1, 0.5});
  Tensor u = leaf({kNaN, 1.0}), v = leaf({0.0, 2.0});
  minimum(u, v).backward(ones({2}, kFloat64));
  expect_values<double>(u.grad(), {2}, {1, 1});
  expect_values<double>(v.grad(), {2}, {1, 0});
}

TEST(EdgeGradients, ReluPassesNaN) {
  Tensor x = leaf({kNaN, -1.0, 2.0});
  relu(x).backward(ones({3}, kFloat64));
  expect_values<double>(x.grad(), {3}, {1, 0, 1});  // PyTorch: 0 only where the result <= 0
}

TEST(EdgeGradients, NormsAtZeroAndNaN) {
  Tensor zero_norm = leaf({1.0, 2.0});
  norm(zero_norm, 0).backward();  // a count of non-zeros: no gradient at all
  EXPECT_FALSE(zero_norm.grad().defined());
  // p = 0.5: sign(x) |x|^(p-1) ||x||^(1-p), 0 where x == 0 (|x|^(p-1) is infinite there).
  Tensor x = leaf({0.0, 4.0});  // ||x|| = (0 + 2)^2 = 4
  norm(x, 0.5).backward();
  expect_values<double>(x.grad(), {2}, {0, 1});
  // The infinity norm of a tensor with NaN is NaN. The NaNs share the gradient, times their
  // sign (0): no element gets 0 / 0.
  Tensor y = leaf({kNaN, 1.0, -3.0});
  norm(y, INFINITY).backward();
  expect_values<double>(y.grad(), {3}, {0, 0, 0});
}

TEST(EdgeGradients, StdOfEqualElementsPassesNothing) {
  Tensor x = leaf({2.0, 2.0, 2.0});
  Tensor s = ember::std(x);
  EXPECT_EQ(s.item<double>(), 0.0);
  s.backward();  // 0 / 0 made 0, as PyTorch's masked_fill
  expect_values<double>(x.grad(), {3}, {0, 0, 0});
}

TEST(EdgeGradients, MaxOfEverythingSharesANaNResultAmongTheNaNs) {
  Tensor x = leaf({1.0, kNaN, 3.0, kNaN});
  max(x).backward();  // PyTorch's evenly_distribute_backward
  expect_values<double>(x.grad(), {4}, {0, 0.5, 0, 0.5});
}

TEST(EdgeGradients, DivisorGradientDoesNotSquareTheDivisor) {
  // -g x / y^2 computed as (x / y) / y: in float16, y^2 = 473344 overflows, the quotients do not.
  Tensor x = tensor({600.0}, kFloat16), y = tensor({-688.0}, kFloat16).requires_grad_();
  (x / y).backward(ones({1}, kFloat16));
  expect_close(y.grad(), {1}, {-600.0 / (688.0 * 688.0)}, 2e-3, 0);
}

TEST(EdgeGradients, SixteenBitSoftmaxBackwardComputesInFloat32) {
  // From the bfloat16 output y = {8.5e-17, 0.00317, 0.996}, g - sum(g y) is 1.25 - 1.2487 for
  // the last element: in bfloat16 that cancels to 0, so the formula runs in float32 (as
  // PyTorch's kernel does) and only the result is rounded.
  Tensor x = tensor({-27.5, 3.75, 9.5}, kBFloat16).requires_grad_();
  Tensor out = softmax(x, 0);
  out.backward(tensor({1.0, 1.125, 1.25}, kBFloat16));
  Tensor y = out.detach().to(kFloat64), g = tensor({1.0, 1.125, 1.25}, kFloat64);
  std::vector<double> expected = (y * (g - (g * y).sum())).to_vector<double>();
  EXPECT_GT(expected[2], 1e-3);
  expect_close(x.grad(), {3}, expected, 1e-2, 1e-6);
}

TEST(EdgeGradients, SixteenBitBatchNormComputesInFloat32) {
  // Both rows are one row, expanded: each channel is constant, so xhat = 0 and the two rows'
  // gradients, w / sqrt(eps) * (g - mean(g)) = -+504 in channel 0, cancel in the expanded row.
  // Computed in bfloat16 their rounding left 18 behind (and -10 in channel 2).
  Tensor row = tensor({{-1.875, 13.5, -14.0}}, kBFloat16).requires_grad_();
  Tensor weight = tensor({-8.5, 16.0, 3.5625}, kBFloat16);
  Tensor out = batch_norm(row.expand({2, 3}), weight, Tensor(), Tensor(), Tensor(), true);
  out.backward(tensor({{1.0, 1.125, 1.25}, {1.375, 1.5, 1.625}}, kBFloat16));
  for (double g : row.grad().to_vector<double>()) EXPECT_NEAR(g, 0.0, 0.05);
}

}  // namespace
}  // namespace ember
