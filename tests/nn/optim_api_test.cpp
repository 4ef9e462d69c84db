// LibTorch's optimizer object model: param groups with their own options (copied on add and on
// copy), defaults, add_param_group's checks, state() keyed by parameter, zero_grad's two modes,
// step(closure)'s loss, and options builders with LibTorch's defaults.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

using optim::OptimizerParamGroup;
using optim::SGD;
using optim::SGDOptions;

TEST(NnOptimApi, OptionsBuildersHaveLibTorchsDefaults) {
  const optim::AdamOptions adam;
  EXPECT_EQ(adam.lr(), 1e-3);
  EXPECT_EQ(adam.betas(), std::make_tuple(0.9, 0.999));
  EXPECT_EQ(adam.eps(), 1e-8);
  EXPECT_FALSE(adam.amsgrad());
  EXPECT_EQ(optim::AdamWOptions().weight_decay(), 1e-2);
  EXPECT_EQ(optim::RMSpropOptions().alpha(), 0.99);
  EXPECT_EQ(optim::AdagradOptions().eps(), 1e-10);
  EXPECT_EQ(optim::LBFGSOptions().history_size(), 100);
  const SGDOptions sgd = SGDOptions(0.1).momentum(0.9).nesterov(true);
  EXPECT_EQ(sgd.lr(), 0.1);
  EXPECT_EQ(sgd.momentum(), 0.9);
  EXPECT_EQ(sgd.dampening(), 0);
  EXPECT_TRUE(sgd.nesterov());
  // clone() is public on the base only, as LibTorch's
  std::unique_ptr<optim::OptimizerOptions> copy =
      static_cast<const optim::OptimizerOptions&>(sgd).clone();
  copy->set_lr(0.5);
  EXPECT_EQ(copy->get_lr(), 0.5);
  EXPECT_EQ(static_cast<const SGDOptions&>(*copy).momentum(), 0.9);
  EXPECT_EQ(sgd.lr(), 0.1);
}

// Each group steps with its own lr; a group without options gets a copy of the defaults, which a
// later change to the defaults does not reach.
TEST(NnOptimApi, ParamGroupsStepWithTheirOwnOptions) {
  Tensor a = tensor({1.0}, kFloat64).requires_grad_(true);
  Tensor b = tensor({1.0}, kFloat64).requires_grad_(true);
  std::vector<OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<Tensor>{a});
  groups.emplace_back(std::vector<Tensor>{b}, std::make_unique<SGDOptions>(0.5));
  SGD sgd(groups, SGDOptions(0.1));
  sgd.defaults().set_lr(7.0);
  EXPECT_EQ(sgd.param_groups()[0].options().get_lr(), 0.1);
  (a * 2.0 + b * 2.0).sum().backward();
  sgd.step();
  EXPECT_DOUBLE_EQ(a.item<double>(), 1.0 - 0.1 * 2);
  EXPECT_DOUBLE_EQ(b.item<double>(), 1.0 - 0.5 * 2);
  EXPECT_EQ(sgd.size(), 2u);
  EXPECT_EQ(sgd.parameters().size(), 1u);  // the first group's

  OptimizerParamGroup copy(sgd.param_groups()[1]);  // copying clones the options
  copy.options().set_lr(3.0);
  EXPECT_EQ(sgd.param_groups()[1].options().get_lr(), 0.5);
  EXPECT_FALSE(OptimizerParamGroup({a}).has_options());
}

TEST(NnOptimApi, AddParamGroupChecksItsParameters) {
  Tensor a = ones({2}).requires_grad_(true), b = ones({2}).requires_grad_(true);
  SGD sgd({a}, 0.1);
  sgd.add_param_group(OptimizerParamGroup({b}));
  EXPECT_EQ(sgd.param_groups().size(), 2u);
  EXPECT_EQ(sgd.param_groups()[1].options().get_lr(), 0.1);
  EXPECT_NE(error_of([&] {
              sgd.add_param_group(OptimizerParamGroup({a}));
            }).find("some parameters appear in more than one parameter group"),
            std::string::npos);
  Tensor non_leaf = a * 2;
  EXPECT_NE(error_of([&] {
              sgd.add_param_group(OptimizerParamGroup({non_leaf}));
            }).find("can't optimize a non-leaf Tensor"),
            std::string::npos);
  EXPECT_NE(error_of<ValueError>([] {
              SGD(std::vector<Tensor>{ones({1})}, -1.0);
            }).find("Invalid learning rate: -1"),
            std::string::npos);
}

// state() maps state_key(param) to the optimizer's own state class; SGD makes a momentum buffer
// on the first step with momentum, which a user may read and replace.
TEST(NnOptimApi, StateIsKeyedByParameter) {
  Tensor p = tensor({1.0, 2.0}, kFloat64).requires_grad_(true);
  SGD sgd({p}, SGDOptions(0.1).momentum(0.9));
  EXPECT_TRUE(sgd.state().empty());
  (p * 3.0).sum().backward();
  sgd.step();
  ASSERT_EQ(sgd.state().size(), 1u);
  auto& state = static_cast<optim::SGDParamState&>(*sgd.state().at(optim::state_key(p)));
  expect_close(state.momentum_buffer(), {2}, {3, 3}, 0, 0);
  std::unique_ptr<optim::OptimizerParamState> saved =
      static_cast<const optim::OptimizerParamState&>(state).clone();
  state.momentum_buffer(zeros({2}, kFloat64));  // reset the momentum: the next step is plain SGD
  sgd.step();
  expect_close(p, {2}, {1.0 - 0.3 - 0.3, 2.0 - 0.3 - 0.3}, 1e-12, 1e-12);
  expect_close(static_cast<optim::SGDParamState&>(*saved).momentum_buffer(), {2}, {3, 3}, 0, 0);
  // LibTorch's key: the TensorImpl's address as `std::ostream << pointer` prints it.
  EXPECT_EQ(optim::state_key(p).rfind("0x", 0), 0u);
  EXPECT_EQ(optim::state_key(p), optim::state_key(Tensor(p)));
  EXPECT_NE(optim::state_key(p), optim::state_key(p.detach()));
}

TEST(NnOptimApi, ZeroGradDropsOrZeroesAndStepReturnsTheClosuresLoss) {
  Tensor p = ones({2}).requires_grad_(true);
  optim::Adagrad adagrad({p});
  EXPECT_EQ(adagrad.state().size(), 1u);  // Adagrad makes its state up front, as LibTorch's
  Tensor loss = adagrad.step([&] {
    Tensor l = (p * p).sum();
    l.backward();
    return l;
  });
  EXPECT_EQ(loss.item<float>(), 2.0f);
  EXPECT_TRUE(loss.grad_fn() != nullptr);  // the closure ran with grad enabled
  EXPECT_FALSE(adagrad.step().defined());  // no closure, no loss
  adagrad.zero_grad(false);
  expect_close(p.grad(), {2}, {0, 0}, 0, 0);
  adagrad.zero_grad();
  EXPECT_FALSE(p.grad().defined());
}

}  // namespace
}  // namespace ember::test
