// Losses (values against hand computation, gradients by finite differences), optimizer steps
// against PyTorch's update rules worked by hand and a small model trained.
#include <gtest/gtest.h>

#include <cmath>

#include "autograd/gradcheck.h"
#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;

// log(sum(exp(row))) computed independently in double.
double logsumexp_row(const std::vector<double>& row) {
  double m = row[0], s = 0;
  for (double v : row) m = std::max(m, v);
  for (double v : row) s += std::exp(v - m);
  return m + std::log(s);
}

TEST(NnLoss, CrossEntropyMatchesHandComputation) {
  std::vector<std::vector<double>> logits{{1.0, 2.0, 0.5}, {0.1, -1.0, 3.0}};
  Tensor x = tensor({{1.0, 2.0, 0.5}, {0.1, -1.0, 3.0}}, kFloat64);
  Tensor t = tensor({1, 2});
  double l0 = logsumexp_row(logits[0]) - 2.0, l1 = logsumexp_row(logits[1]) - 3.0;
  EXPECT_NEAR(F::cross_entropy(x, t).item<double>(), (l0 + l1) / 2, 1e-12);
  EXPECT_NEAR(F::cross_entropy(x, t, F::CrossEntropyFuncOptions().reduction(kSum)).item<double>(),
              l0 + l1, 1e-12);
  expect_close(F::cross_entropy(x, t, F::CrossEntropyFuncOptions().reduction(kNone)), {2}, {l0, l1},
               1e-12);
  // ignore_index: only sample 0 counts, and the mean divides by 1.
  EXPECT_NEAR(F::cross_entropy(x, tensor({1, -100})).item<double>(), l0, 1e-12);
  // Class weights: the weighted mean divides by the weights of the targets.
  Tensor w = tensor({1.0, 2.0, 3.0}, kFloat64);
  EXPECT_NEAR(F::cross_entropy(x, t, F::CrossEntropyFuncOptions().weight(w)).item<double>(),
              (2 * l0 + 3 * l1) / 5, 1e-12);
  // Label smoothing e: (1 - e) nll + e / C * sum_c -log p_c.
  double e = 0.1, s0 = 0, s1 = 0;
  for (double v : logits[0]) s0 += logsumexp_row(logits[0]) - v;
  for (double v : logits[1]) s1 += logsumexp_row(logits[1]) - v;
  double expected = (1 - e) * (l0 + l1) / 2 + e / 3 * (s0 + s1) / 2;
  EXPECT_NEAR(
      F::cross_entropy(x, t, F::CrossEntropyFuncOptions().label_smoothing(e)).item<double>(),
      expected, 1e-12);
  // Probabilities as target equal the one-hot class-index loss.
  EXPECT_NEAR(
      F::cross_entropy(x, tensor({{0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}, kFloat64)).item<double>(),
      (l0 + l1) / 2, 1e-12);
  nn::CrossEntropyLoss module;
  EXPECT_EQ(module(x.requires_grad_(), t).grad_fn()->name(), "NllLossBackward0");
  std::string msg = error_of<IndexError>([&] { F::cross_entropy(x, tensor({0, 3})); });
  EXPECT_NE(msg.find("Target 3 is out of bounds"), std::string::npos) << msg;
  msg = error_of<IndexError>([&] {
    F::cross_entropy(x, tensor({0, 3}), F::CrossEntropyFuncOptions().weight(w));
  });  // with weights too
  EXPECT_NE(msg.find("Target 3 is out of bounds"), std::string::npos) << msg;
}

TEST(NnLoss, MseAndBceWithLogits) {
  Tensor x = tensor({0.5, -1.0, 2.0}, kFloat64), y = tensor({1.0, 0.0, 1.0}, kFloat64);
  EXPECT_NEAR(F::mse_loss(x, y).item<double>(), (0.25 + 1.0 + 1.0) / 3, 1e-12);
  double bce = 0;
  std::vector<double> xs{0.5, -1.0, 2.0}, ys{1, 0, 1};
  for (int i = 0; i < 3; ++i) {
    double p = 1 / (1 + std::exp(-xs[i]));
    bce += -(ys[i] * std::log(p) + (1 - ys[i]) * std::log(1 - p));
  }
  EXPECT_NEAR(F::binary_cross_entropy_with_logits(x, y).item<double>(), bce / 3, 1e-12);
  // Stable for large logits where log(sigmoid) would overflow.
  EXPECT_NEAR(
      F::binary_cross_entropy_with_logits(tensor({-200.0}, kFloat64), tensor({1.0}, kFloat64))
          .item<double>(),
      200.0, 1e-9);
  EXPECT_EQ(nn::MSELoss()(x.requires_grad_(), y).grad_fn()->name(), "MseLossBackward0");
}

TEST(NnLoss, Gradients) {
  Tensor cls = tensor({2, 0, 1});
  gradcheck("cross_entropy",
            [&](const std::vector<Tensor>& v) { return F::cross_entropy(v[0], cls); },
            {randn({3, 4})});
  gradcheck("cross_entropy smoothing weight",
            [&](const std::vector<Tensor>& v) {
              return F::cross_entropy(v[0], cls,
                                      F::CrossEntropyFuncOptions()
                                          .weight(tensor({1.0, 2.0, 0.5, 1.0}, kFloat64))
                                          .label_smoothing(0.2));
            },
            {randn({3, 4})});
  gradcheck("nll_loss K-dim",
            [&](const std::vector<Tensor>& v) {
              return F::nll_loss(log_softmax(v[0], 1), tensor({{0, 1}, {2, 2}}));
            },
            {randn({2, 3, 2})});
  gradcheck("mse", [](const std::vector<Tensor>& v) { return F::mse_loss(v[0], v[1]); },
            {randn({2, 3}), randn({2, 3})});
  gradcheck("bce_with_logits pos_weight",
            [](const std::vector<Tensor>& v) {
              return F::binary_cross_entropy_with_logits(
                  v[0], v[1],
                  F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(kSum).pos_weight(
                      tensor({2.0, 0.5}, kFloat64)));
            },
            {randn({3, 2}), rand({3, 2})});
}

TEST(NnOptim, SgdMomentumNesterovWeightDecayByHand) {
  Tensor p = tensor({1.0}, kFloat64).requires_grad_();
  optim::SGD sgd({p}, optim::SGDOptions(0.1).momentum(0.9).weight_decay(0.5).nesterov(true));
  // step 1: g = 2p = 2, d = g + 0.5 p = 2.5, buf = 2.5, d = d + 0.9 buf = 4.75, p = 1 - 0.475.
  (p * p).sum().backward();
  sgd.step();
  EXPECT_NEAR(p.item<double>(), 0.525, 1e-12);
  // step 2: g = 1.05 + (old grad zeroed) -> d = 1.05 + 0.2625 = 1.3125,
  // buf = 0.9 * 2.5 + 1.3125 = 3.5625, d = 1.3125 + 0.9 * 3.5625 = 4.51875, p = 0.525 - 0.451875.
  sgd.zero_grad();
  (p * p).sum().backward();
  sgd.step();
  EXPECT_NEAR(p.item<double>(), 0.073125, 1e-12);
}

TEST(NnOptim, AdamAndAdamWByHand) {
  Tensor p = tensor({1.0, -2.0}, kFloat64).requires_grad_();
  optim::Adam adam({p}, 0.1);
  (p * 3.0).sum().backward();  // g = 3: the first step moves each element by lr * g / (|g| + eps)
  adam.step();
  expect_close(p, {2}, {0.9, -2.1}, 1e-9);
  Tensor q = tensor({1.0}, kFloat64).requires_grad_();
  optim::AdamW adamw({q}, optim::AdamWOptions(0.1).weight_decay(0.5));
  (q * 2.0).sum().backward();
  adamw.step();  // q = 1 * (1 - 0.05) - 0.1 * 1
  EXPECT_NEAR(q.item<double>(), 0.85, 1e-9);
  std::string msg = error_of<ValueError>([] { optim::SGD bad(std::vector<Tensor>{}, 0.1); });
  EXPECT_NE(msg.find("empty parameter list"), std::string::npos) << msg;
}

// Fine-tuning: a frozen parameter (requires_grad false) may be passed to an optimizer, which
// leaves it alone, as PyTorch's does with a parameter whose grad is None.
TEST(NnOptim, FrozenParametersAreAcceptedAndLeftAlone) {
  auto lin = nn::Linear(2, 1);
  lin->bias.requires_grad_(false);
  Tensor bias = lin->bias.clone(), weight = lin->weight.clone();
  optim::SGD sgd(lin->parameters(), 0.5);
  lin(ones({1, 2})).sum().backward();  // d/dw = [1, 1]
  sgd.step();
  EXPECT_TRUE(equal(lin->bias, bias));
  EXPECT_TRUE(allclose(lin->weight, weight - 0.5));
}

// Adam counts steps per parameter (PyTorch's state['step']): a parameter unfrozen after three
// steps takes a first step (lr * sign(g)), bias-corrected by its own count.
TEST(NnOptim, AdamCountsStepsPerParameter) {
  Tensor a = ones({1}, kFloat64), b = ones({1}, kFloat64).requires_grad_();
  optim::Adam adam({a, b}, 0.1);
  for (int i = 0; i < 3; ++i) {
    adam.zero_grad();
    (b * 2.0).sum().backward();
    adam.step();
  }
  a.requires_grad_();
  adam.zero_grad();
  (a * 5.0).sum().backward();
  adam.step();
  EXPECT_NEAR(a.item<double>(), 0.9, 1e-9);  // eps moves it by 2e-10
  auto steps_of = [&adam](const Tensor& p) {
    return static_cast<optim::AdamParamState&>(*adam.state().at(optim::state_key(p))).step();
  };
  EXPECT_EQ(steps_of(a), 1);
  EXPECT_EQ(steps_of(b), 3);
}

TEST(NnOptim, StateFollowsTheParameterAfterModuleTo) {
  auto net = nn::Sequential(nn::Linear(2, 1));
  optim::SGD sgd(net->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  net(ones({1, 2})).sum().backward();
  sgd.step();
  net->to(kFloat64);  // moves the parameters in place; the optimizer's handles follow
  sgd.zero_grad();
  net(ones({1, 2}, kFloat64)).sum().backward();
  sgd.step();  // the momentum buffer follows to float64 instead of failing
  EXPECT_EQ(net->parameters()[0].dtype(), kFloat64);
}

TEST(NnTraining, LinearRegressionConverges) {
  manual_seed(3);
  Tensor x = randn({64, 3});
  Tensor y = matmul(x, tensor({{2.0f}, {-1.0f}, {0.5f}})) + 0.25f;
  auto net = nn::Sequential(nn::Linear(3, 1));
  optim::SGD sgd(net->parameters(), 0.1);
  double loss = 0;
  for (int step = 0; step < 200; ++step) {
    sgd.zero_grad();
    Tensor l = F::mse_loss(net(x), y);
    l.backward();
    sgd.step();
    loss = l.item<double>();
  }
  EXPECT_LT(loss, 1e-8);
  expect_close(net->parameters()[0], {1, 3}, {2.0, -1.0, 0.5}, 1e-3, 1e-3);
  expect_close(net->parameters()[1], {1}, {0.25}, 1e-3, 1e-3);
}

}  // namespace
}  // namespace ember::test
