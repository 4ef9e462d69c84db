// The random fills in place (uniform_, normal_, bernoulli_, random_) on every device: ranges,
// dtypes, statistics of 10000 draws with bands of six standard errors, and what is exact.
#include <gtest/gtest.h>

#include <cmath>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

constexpr int64_t kDraws = 10000;

double mean_of(const Tensor& t) { return t.to(kDouble).mean().item<double>(); }
double low(const Tensor& t) { return t.min().item<double>(); }
double high(const Tensor& t) { return t.max().item<double>(); }

class RandomFill : public ::testing::TestWithParam<Device> {};

TEST_P(RandomFill, UniformStaysInItsRangeWithTheRightMean) {
  manual_seed(1);
  const Tensor u = empty({kDraws}, TensorOptions().device(GetParam()));
  EXPECT_TRUE(u.uniform_().is_same(u));
  EXPECT_GE(low(u), 0);
  EXPECT_LT(high(u), 1);
  EXPECT_NEAR(mean_of(u), 0.5, 6 * std::sqrt(1.0 / 12 / kDraws));
  u.uniform_(-2, 3);
  EXPECT_GE(low(u), -2);
  EXPECT_LE(high(u), 3);
  EXPECT_NEAR(mean_of(u), 0.5, 6 * 5 * std::sqrt(1.0 / 12 / kDraws));
  EXPECT_THROW(u.uniform_(3, 2), ValueError);
  EXPECT_THROW(empty({2}, kLong).uniform_(), TypeError);
}

TEST_P(RandomFill, NormalHasItsMeanAndStd) {
  manual_seed(2);
  const Tensor n = empty({kDraws}, TensorOptions(kDouble).device(GetParam()));
  n.normal_(5, 0.5);
  EXPECT_NEAR(mean_of(n), 5, 6 * 0.5 / std::sqrt(kDraws));
  EXPECT_NEAR((n - 5).square().mean().item<double>(), 0.25, 0.02);
  test::expect_values<float>(zeros({3}, TensorOptions().device(GetParam())).normal_(2, 0), {3},
                             {2, 2, 2});
  EXPECT_THROW(n.normal_(0, -1), ValueError);
}

TEST_P(RandomFill, BernoulliIsExactAtZeroAndOne) {
  manual_seed(3);
  const TensorOptions on = TensorOptions().device(GetParam());
  const Tensor b = empty({kDraws}, on).bernoulli_(0.3);
  EXPECT_TRUE((b.eq(0) | b.eq(1)).all().item<bool>());
  EXPECT_NEAR(mean_of(b), 0.3, 6 * std::sqrt(0.21 / kDraws));
  const Tensor p = tensor({0.f, 1.f, 1.f, 0.f}, on);
  test::expect_values<float>(empty({4}, on).bernoulli_(p), {4}, {0, 1, 1, 0});
  test::expect_values<float>(p.bernoulli(), {4}, {0, 1, 1, 0});
  test::expect_values<float>(p.bernoulli(0.0), {4}, {0, 0, 0, 0});
  test::expect_values<float>(p.bernoulli(1.0), {4}, {1, 1, 1, 1});
  test::expect_values<bool>(empty({3}, on.dtype(kBool)).bernoulli_(1.0), {3}, {true, true, true});
  // p broadcasts to the filled tensor's shape.
  test::expect_values<int64_t>(empty({2, 2}, on.dtype(kLong)).bernoulli_(tensor({1.0, 0.0}, on)),
                               {2, 2}, {1, 0, 1, 0});
  EXPECT_THROW(b.bernoulli_(1.5), ValueError);
}

TEST_P(RandomFill, RandomDrawsIntegersOfTheRangeAndDtype) {
  manual_seed(4);
  const TensorOptions on = TensorOptions().device(GetParam());
  const Tensor r = empty({kDraws}, on.dtype(kLong));
  r.random_(0, 10);
  EXPECT_EQ(low(r), 0);
  EXPECT_EQ(high(r), 9);
  r.random_(5);
  EXPECT_EQ(low(r), 0);
  EXPECT_EQ(high(r), 4);
  r.random_(-3, 3);
  EXPECT_EQ(low(r), -3);
  EXPECT_EQ(high(r), 2);
  // Without bounds: the dtype's whole range (floats: the integers up to 2^24).
  const Tensor bytes = empty({kDraws}, on.dtype(kByte)).random_();
  EXPECT_NEAR(mean_of(bytes), 127.5, 6 * 74 / std::sqrt(kDraws));
  EXPECT_EQ(high(bytes), 255);
  const Tensor floats = empty({kDraws}, on).random_();
  EXPECT_TRUE(floats.eq(floats.floor()).all().item<bool>());
  EXPECT_LE(high(floats), 16777216);
  EXPECT_GT(high(floats), 16777216 * 0.99);
  // int64 draws are exact beyond 2^53, and never wrap negative.
  const Tensor longs = empty({kDraws}, on.dtype(kLong)).random_();
  EXPECT_GE(longs.min().item<int64_t>(), 0);
  EXPECT_GT(longs.max().item<int64_t>(), int64_t{1} << 62);
  EXPECT_THROW(r.random_(3, 3), ValueError);
}

TEST_P(RandomFill, NonContiguousTensorsGetTheValuesOfTheirContiguousTwin) {
  const TensorOptions on = TensorOptions().device(GetParam());
  manual_seed(5);
  const Tensor dense = empty({3, 2}, on).uniform_();
  manual_seed(5);
  const Tensor transposed = empty({2, 3}, on).t();
  transposed.uniform_();
  EXPECT_TRUE(transposed.eq(dense).all().item<bool>());
  EXPECT_EQ(transposed.strides(), IntArrayRef({1, 3}));
}

TEST_P(RandomFill, ReseedingRepeatsTheDraws) {
  const TensorOptions on = TensorOptions().device(GetParam());
  manual_seed(7);
  const Tensor a = empty({5}, on).uniform_();
  const Tensor b = empty({5}, on).normal_();
  manual_seed(7);
  EXPECT_TRUE(empty({5}, on).uniform_().eq(a).all().item<bool>());
  EXPECT_TRUE(empty({5}, on).normal_().eq(b).all().item<bool>());
  EXPECT_FALSE(empty({5}, on).uniform_().eq(a).all().item<bool>());
}

TEST(RandomFillAutograd, FillsALeafRequiringGradOnlyWithoutGrad) {
  const Tensor w = zeros({3}, requires_grad());
  EXPECT_THROW(w.uniform_(), Error);
  {
    NoGradGuard no_grad;
    w.uniform_(1, 2);
  }
  EXPECT_GE(low(w), 1);
  EXPECT_TRUE(w.requires_grad());
}

INSTANTIATE_TEST_SUITE_P(Devices, RandomFill, ::testing::ValuesIn(test::all_devices()),
                         [](const auto& info) { return info.param.is_cpu() ? "cpu" : "cuda"; });

}  // namespace
}  // namespace ember
