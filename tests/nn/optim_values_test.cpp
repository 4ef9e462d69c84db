// RMSprop, Adagrad, AMSGrad and LBFGS against torch.optim 1.13: five steps (LBFGS: three
// step(closure) calls) on a small linear regression in float64 from fixed weights. The expected
// weights come from running the same problem in Python (torch 1.13, float64).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

// y = x w + b on four points; the loss is the mean squared error.
struct Regression {
  Tensor x = tensor({1.0, 2.0, -1.0, 0.5, 0.0, -1.5, 2.0, 1.0}, kFloat64).view({4, 2});
  Tensor y = tensor({1.0, -2.0, 0.5, 3.0}, kFloat64).view({4, 1});
  Tensor w = tensor({0.3, -0.2}, kFloat64).view({2, 1}).requires_grad_(true);
  Tensor b = tensor({0.1}, kFloat64).requires_grad_(true);

  Tensor loss(int64_t power = 2) const { return (x.matmul(w) + b - y).pow(power).mean(); }
  // w and b, flattened: what the Python reference printed.
  Tensor weights() const { return cat({w.detach().view({-1}), b.detach()}); }
};

using MakeOptimizer = std::function<std::unique_ptr<optim::Optimizer>(std::vector<Tensor>)>;

void expect_five_steps(const char* what, const MakeOptimizer& make, std::vector<double> want) {
  SCOPED_TRACE(what);
  Regression problem;
  auto optimizer = make({problem.w, problem.b});
  for (int i = 0; i < 5; ++i) {
    optimizer->zero_grad();
    problem.loss().backward();
    optimizer->step();
  }
  expect_close(problem.weights(), {3}, want, 1e-12, 1e-12);
}

TEST(NnOptimValues, RmspropAdagradAndAmsgradMatchTorch) {
  using namespace optim;  // NOLINT(google-build-using-namespace)
  expect_five_steps("RMSprop(lr=0.01)",
                    [](auto p) { return std::make_unique<RMSprop>(p, RMSpropOptions()); },
                    {0.5946069792800938, 0.023566895414405944, 0.30379509644270053});
  expect_five_steps(
      "RMSprop(lr=0.01, alpha=0.9, centered, momentum=0.5, weight_decay=0.1)",
      [](auto p) {
        return std::make_unique<RMSprop>(
            p, RMSpropOptions(0.01).alpha(0.9).centered(true).momentum(0.5).weight_decay(0.1));
      },
      {0.4945085564168751, -0.022982494220067786, 0.2709713667267829});
  expect_five_steps(
      "Adagrad(lr=0.2, lr_decay=0.05, initial_accumulator_value=0.5, weight_decay=0.01)",
      [](auto p) {
        return std::make_unique<Adagrad>(
            p,
            AdagradOptions(0.2).lr_decay(0.05).initial_accumulator_value(0.5).weight_decay(0.01));
      },
      {0.8004675172179222, 0.03266173987312813, 0.2706266951055348});
  expect_five_steps("Adam(lr=0.1, betas=(0.8, 0.95), weight_decay=0.1, amsgrad)",
                    [](auto p) {
                      return std::make_unique<Adam>(
                          p, AdamOptions(0.1).betas({0.8, 0.95}).weight_decay(0.1).amsgrad(true));
                    },
                    {0.7796085450574339, 0.17034234320286273, 0.422507578187193});
  expect_five_steps(
      "AdamW(lr=0.05, amsgrad)",
      [](auto p) { return std::make_unique<AdamW>(p, AdamWOptions(0.05).amsgrad(true)); },
      {0.5464748576737227, 0.038218203712869006, 0.33390056314221056});
}

// The losses step(closure) returns over three calls, for the mean `power` of the residuals.
std::vector<double> three_steps(optim::LBFGS& lbfgs, const Regression& problem, int64_t power) {
  std::vector<double> losses;
  for (int i = 0; i < 3; ++i) {
    Tensor loss = lbfgs.step([&] {
      lbfgs.zero_grad();
      Tensor l = problem.loss(power);
      l.backward();
      return l;
    });
    losses.push_back(loss.item<double>());
  }
  return losses;
}

// LBFGS(lr=0.5, max_iter=4, history_size=3): three step(closure) calls of four iterations each.
// step returns the loss of its first evaluation; the state counts evaluations and iterations.
TEST(NnOptimValues, LbfgsMatchesTorch) {
  Regression problem;
  optim::LBFGS lbfgs({problem.w, problem.b}, optim::LBFGSOptions(0.5).max_iter(4).history_size(3));
  EXPECT_EQ(static_cast<const optim::LBFGSOptions&>(lbfgs.defaults()).max_eval(), 5);
  const std::vector<double> losses = three_steps(lbfgs, problem, 2);
  const std::vector<double> want_losses{2.5374999999999996, 0.0853072756024837,
                                        0.0014732939151382216};
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(losses[i], want_losses[i], 1e-12) << i;
  expect_close(problem.weights(), {3},
               {1.7278986905062366, -0.35684582396593506, -0.06029145227241425}, 1e-12, 1e-12);
  const auto& state =
      static_cast<const optim::LBFGSParamState&>(*lbfgs.state().at(optim::state_key(problem.w)));
  EXPECT_EQ(state.func_evals(), 12);
  EXPECT_EQ(state.n_iter(), 12);
  EXPECT_EQ(state.old_dirs().size(), 3u);  // history_size pairs kept
  EXPECT_NE(error_of([&] { lbfgs.step(nullptr); }).find("LBFGS requires a closure function"),
            std::string::npos);
}

// LBFGS(max_iter=5, history_size=4, line_search_fn="strong_wolfe") on the mean fourth power of the
// residuals, where the line search both extrapolates and zooms.
TEST(NnOptimValues, LbfgsStrongWolfeMatchesTorch) {
  Regression problem;
  optim::LBFGS lbfgs(
      {problem.w, problem.b},
      optim::LBFGSOptions().max_iter(5).history_size(4).line_search_fn("strong_wolfe"));
  const std::vector<double> losses = three_steps(lbfgs, problem, 4);
  const std::vector<double> want_losses{12.103674999999999, 0.02563546614545584,
                                        0.00010101130013527626};
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(losses[i], want_losses[i], 1e-12) << i;
  expect_close(problem.weights(), {3},
               {1.7249557468109615, -0.3533126751122237, -0.05979725337740542}, 1e-10, 1e-10);
  const auto& state =
      static_cast<const optim::LBFGSParamState&>(*lbfgs.state().at(optim::state_key(problem.w)));
  EXPECT_EQ(state.func_evals(), 18);
  EXPECT_EQ(state.n_iter(), 15);
  EXPECT_EQ(state.t(), 1.0);
  optim::LBFGS other({problem.w}, optim::LBFGSOptions().line_search_fn("backtracking"));
  EXPECT_NE(error_of([&] {
              other.step([&] { return problem.loss(); });
            }).find("only 'strong_wolfe' is supported"),
            std::string::npos);
}

}  // namespace
}  // namespace ember::test
