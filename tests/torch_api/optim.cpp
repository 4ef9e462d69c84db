// Area 6 (issue 22): optimizers as LibTorch's C++ frontend defines them. Each optimizer trains the
// same tiny linear regression for 20 steps from the same initial weights; the losses, printed to
// 4 decimals, must agree. Also: option builders, param groups with their own options, state(),
// LBFGS's closure step, StepLR and the checks' messages.
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "torch_api.h"

namespace {

// y = x w + b on four points, from fixed weights: a new problem (and fresh parameters) per call.
struct Regression {
  torch::Tensor x = torch::tensor({1.0, 2.0, -1.0, 0.5, 0.0, -1.5, 2.0, 1.0}).view({4, 2});
  torch::Tensor y = torch::tensor({1.0, -2.0, 0.5, 3.0}).view({4, 1});
  torch::Tensor w = torch::tensor({0.3, -0.2}).view({2, 1}).requires_grad_(true);
  torch::Tensor b = torch::tensor({0.1}).requires_grad_(true);

  std::vector<torch::Tensor> parameters() const { return {w, b}; }
  torch::Tensor loss() const { return (x.matmul(w) + b - y).pow(2).mean(); }
};

std::string four_decimals(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

// The losses of `steps` steps of optimizer.step(), each after zero_grad and backward.
std::string losses(torch::optim::Optimizer& optimizer, const Regression& problem, int steps = 20,
                   const std::function<void()>& after_step = nullptr) {
  std::string out;
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    torch::Tensor loss = problem.loss();
    loss.backward();
    optimizer.step();
    if (after_step) after_step();
    out += (i == 0 ? "" : " ") + four_decimals(loss.item<double>());
  }
  return out;
}

// Runs the optimizer `make` builds for the problem's parameters and prints its losses.
template <class Make>
void train(const char* name, Make&& make) {
  torch_api::check(name, [&] {
    Regression problem;
    auto optimizer = make(problem.parameters());
    return losses(*optimizer, problem);
  });
}

void trains_each_optimizer() {
  using namespace torch::optim;  // NOLINT(google-build-using-namespace)
  using Params = std::vector<torch::Tensor>;
  train("SGD(0.05)", [](Params p) { return std::make_unique<SGD>(p, SGDOptions(0.05)); });
  train("SGD momentum nesterov weight_decay", [](Params p) {
    return std::make_unique<SGD>(p,
                                 SGDOptions(0.02).momentum(0.9).nesterov(true).weight_decay(0.01));
  });
  train("SGD momentum dampening", [](Params p) {
    return std::make_unique<SGD>(p, SGDOptions(0.05).momentum(0.5).dampening(0.3));
  });
  train("Adam(0.1)", [](Params p) { return std::make_unique<Adam>(p, AdamOptions(0.1)); });
  train("Adam betas weight_decay amsgrad", [](Params p) {
    return std::make_unique<Adam>(
        p, AdamOptions(0.1).betas(std::make_tuple(0.8, 0.95)).weight_decay(0.1).amsgrad(true));
  });
  train("AdamW(0.1)", [](Params p) { return std::make_unique<AdamW>(p, AdamWOptions(0.1)); });
  train("AdamW amsgrad eps", [](Params p) {
    return std::make_unique<AdamW>(p, AdamWOptions(0.05).amsgrad(true).eps(1e-6));
  });
  train("RMSprop(0.01)", [](Params p) { return std::make_unique<RMSprop>(p, RMSpropOptions()); });
  train("RMSprop centered momentum weight_decay", [](Params p) {
    return std::make_unique<RMSprop>(
        p, RMSpropOptions(0.01).centered(true).momentum(0.5).weight_decay(0.1).alpha(0.9));
  });
  train("Adagrad(0.1)", [](Params p) { return std::make_unique<Adagrad>(p, AdagradOptions(0.1)); });
  train("Adagrad lr_decay initial_accumulator_value", [](Params p) {
    return std::make_unique<Adagrad>(
        p, AdagradOptions(0.2).lr_decay(0.05).initial_accumulator_value(0.5).weight_decay(0.01));
  });
}

// LBFGS's losses over five step(closure) calls (each runs up to max_iter iterations) and the
// loss it ends at.
std::string lbfgs_losses(const torch::optim::LBFGSOptions& options) {
  Regression problem;
  torch::optim::LBFGS lbfgs(problem.parameters(), options);
  std::string out;
  for (int i = 0; i < 5; ++i) {
    torch::Tensor loss = lbfgs.step([&] {
      lbfgs.zero_grad();
      torch::Tensor l = problem.loss();
      l.backward();
      return l;
    });
    out += (i == 0 ? "" : " ") + four_decimals(loss.item<double>());
  }
  return out + " | final " + four_decimals(problem.loss().item<double>());
}

void lbfgs() {
  using torch::optim::LBFGSOptions;
  torch_api::check("LBFGS 5 steps",
                   [] { return lbfgs_losses(LBFGSOptions(0.5).max_iter(4).history_size(3)); });
  torch_api::check("LBFGS strong_wolfe 5 steps", [] {
    return lbfgs_losses(LBFGSOptions().max_iter(3).line_search_fn("strong_wolfe"));
  });
  Regression problem;
  SHOW_THROWS("LBFGS doesn't support per-parameter options",
              torch::optim::LBFGS({torch::optim::OptimizerParamGroup({problem.w}),
                                   torch::optim::OptimizerParamGroup({problem.b})}));
}

// Two groups: the bias learns with its own lr; a third group added later with the defaults.
void param_groups_and_state() {
  using namespace torch::optim;  // NOLINT(google-build-using-namespace)
  Regression problem;
  std::vector<OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<torch::Tensor>{problem.w});
  groups.emplace_back(std::vector<torch::Tensor>{problem.b}, std::make_unique<SGDOptions>(0.2));
  SGD sgd(groups, SGDOptions(0.05).momentum(0.9));
  SHOW(sgd.param_groups().size());
  SHOW(sgd.size());
  SHOW(sgd.state().size());
  SHOW(static_cast<SGDOptions&>(sgd.param_groups()[0].options()).momentum());
  SHOW(static_cast<SGDOptions&>(sgd.param_groups()[1].options()).momentum());
  SHOW(sgd.param_groups()[1].options().get_lr());
  SHOW(static_cast<SGDOptions&>(sgd.defaults()).lr());
  torch_api::print("SGD two groups", losses(sgd, problem));
  SHOW(sgd.state().size());
  torch::Tensor extra = torch::zeros({3}, torch::requires_grad());
  sgd.add_param_group(OptimizerParamGroup({extra}));
  SHOW(sgd.param_groups().size());
  SHOW(sgd.param_groups()[2].options().get_lr());

  Regression adam_problem;
  Adam adam(adam_problem.parameters(), AdamOptions(0.1));
  losses(adam, adam_problem, 3);
  SHOW(adam.state().size());
  for (const auto& entry : adam.state()) {
    const auto& state = static_cast<const AdamParamState&>(*entry.second);
    torch_api::print("Adam state step", torch_api::show(state.step()));
  }
  SHOW_THROWS("Invalid learning rate", SGD(problem.parameters(), SGDOptions(-0.1)));
  SHOW_THROWS("Nesterov momentum requires a momentum and zero dampening",
              SGD(problem.parameters(), SGDOptions(0.1).nesterov(true)));
  SHOW_THROWS("Invalid beta parameter at index 1",
              Adam(problem.parameters(), AdamOptions().betas(std::make_tuple(0.9, 1.0))));
  SHOW_THROWS("Invalid alpha value", RMSprop(problem.parameters(), RMSpropOptions().alpha(-1)));
  SHOW_THROWS("Invalid lr_decay value",
              Adagrad(problem.parameters(), AdagradOptions().lr_decay(-1)));
}

// StepLR: LibTorch's decays on the step after each step_size steps.
void schedulers() {
  Regression problem;
  torch::optim::SGD sgd(problem.parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR step_lr(sgd, 3, 0.5);
  std::string lrs;
  for (int i = 0; i < 8; ++i) {
    step_lr.step();
    lrs += (i == 0 ? "" : " ") + four_decimals(sgd.param_groups()[0].options().get_lr());
  }
  torch_api::print("StepLR(3, 0.5) lrs", lrs);
}

}  // namespace

void optimizers() {
  torch_api::section("optim");
  trains_each_optimizer();
  lbfgs();
  param_groups_and_state();
  schedulers();
}
