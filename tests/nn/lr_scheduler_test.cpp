// Learning-rate schedulers: ember's closed-form schedules over 12 steps against
// torch.optim.lr_scheduler's, LibTorch's StepLR and ReduceLROnPlateauScheduler by hand, per-group
// lrs, the optimizer really stepping with the scheduled lr, user-defined schedules, and each
// argument check.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

using optim::ClosedFormLRScheduler;

double lr_of(const optim::Optimizer& o, size_t group = 0) {
  return o.param_groups().at(group).options().get_lr();
}

struct Case {
  std::string name;
  std::function<std::unique_ptr<ClosedFormLRScheduler>(optim::Optimizer&)> make;
  std::vector<double> lrs;  // get_last_lr() after construction, then after each of 12 steps
};

// The values are PyTorch's: `python3 tests/nn/gen_lr_scheduler_reference.py` (torch 1.13; SGD
// with lr 0.1 on one parameter, sched.get_last_lr()[0] per step). PyTorch steps recursively and
// ember in closed form (Note [Closed-form schedules]), so they agree to rounding, not bitwise.
std::vector<Case> cases() {
  using namespace optim;  // NOLINT(google-build-using-namespace): the schedulers, as in Python
  return {
      {"MultiStepLR({6, 2, 9, 2}, 0.1)",  // unsorted, and 2 twice: two decays at epoch 2
       [](Optimizer& o) {
         return std::make_unique<MultiStepLR>(o, std::vector<int64_t>{6, 2, 9, 2});
       },
       {0.1, 0.1, 0.0010000000000000002, 0.0010000000000000002, 0.0010000000000000002,
        0.0010000000000000002, 0.00010000000000000003, 0.00010000000000000003,
        0.00010000000000000003, 1.0000000000000004e-05, 1.0000000000000004e-05,
        1.0000000000000004e-05, 1.0000000000000004e-05}},
      {"ExponentialLR(0.9)",
       [](Optimizer& o) { return std::make_unique<ExponentialLR>(o, 0.9); },
       {0.1, 0.09000000000000001, 0.08100000000000002, 0.07290000000000002, 0.06561000000000002,
        0.05904900000000002, 0.05314410000000002, 0.04782969000000002, 0.043046721000000024,
        0.03874204890000002, 0.03486784401000002, 0.03138105960900001, 0.028242953648100012}},
      {"CosineAnnealingLR(5, 0.001)",  // past T_max the lr climbs back (period 2 T_max)
       [](Optimizer& o) { return std::make_unique<CosineAnnealingLR>(o, 5, 0.001); },
       {0.1, 0.0905463412215599, 0.06579634122155989, 0.035203658778440096, 0.010453658778440105,
        0.001, 0.010453658778440102, 0.03520365877844012, 0.06579634122155993, 0.09054634122155995,
        0.10000000000000005, 0.09054634122155998, 0.06579634122155995}},
      {"LinearLR()",
       [](Optimizer& o) { return std::make_unique<LinearLR>(o); },
       {0.03333333333333333, 0.04666666666666667, 0.060000000000000005, 0.07333333333333335,
        0.08666666666666668, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}},
      {"LinearLR(1, 0, 10)",
       [](Optimizer& o) { return std::make_unique<LinearLR>(o, 1.0, 0.0, 10); },
       {0.1, 0.09000000000000001, 0.08, 0.07, 0.06000000000000001, 0.05000000000000001,
        0.04000000000000001, 0.030000000000000006, 0.020000000000000007, 0.010000000000000004, 0.0,
        0.0, 0.0}},
  };
}

TEST(NnLrScheduler, TwelveStepsMatchPyTorch) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    optim::SGD sgd({zeros({1}).requires_grad_(true)}, 0.1);
    auto sched = c.make(sgd);
    EXPECT_EQ(sched->base_lrs(), std::vector<double>{0.1});
    for (int64_t epoch = 0; epoch <= 12; ++epoch) {
      if (epoch > 0) sched->step();
      const double want = c.lrs[static_cast<size_t>(epoch)];
      EXPECT_EQ(sched->last_epoch(), epoch);
      EXPECT_NEAR(sched->get_last_lr().at(0), want, 1e-12 * want) << "epoch " << epoch;
      EXPECT_EQ(lr_of(sgd), sched->get_last_lr().at(0)) << "epoch " << epoch;
      EXPECT_EQ(sched->lr_at(epoch, 0.1), lr_of(sgd)) << "epoch " << epoch;
    }
  }
}

// The scheduled lr is the one the optimizer steps with: p -= lr * grad.
TEST(NnLrScheduler, OptimizerStepsWithTheScheduledLr) {
  Tensor p = tensor({1.0}, kFloat64).requires_grad_(true);
  optim::SGD sgd({p}, 0.3);
  optim::LinearLR warmup(sgd, 1.0 / 3, 1.0, 2);  // construction already sets epoch 0's lr
  EXPECT_DOUBLE_EQ(lr_of(sgd), 0.1);
  const double want_lrs[] = {0.1, 0.2, 0.3};
  double want_p = 1.0;
  for (double lr : want_lrs) {
    EXPECT_DOUBLE_EQ(lr_of(sgd), lr);
    sgd.zero_grad();
    (p * 2.0).sum().backward();  // grad 2
    sgd.step();
    want_p -= lr * 2.0;
    EXPECT_NEAR(p.item<double>(), want_p, 1e-15);
    warmup.step();
  }
  EXPECT_NEAR(p.item<double>(), 1.0 - 2 * (0.1 + 0.2 + 0.3), 1e-15);
}

// A closed-form schedule of one's own: lr_at plus initial_step() at the end of the constructor.
class HalvingLR : public ClosedFormLRScheduler {
 public:
  explicit HalvingLR(optim::Optimizer& optimizer) : ClosedFormLRScheduler(optimizer) {
    initial_step();
  }
  double lr_at(int64_t epoch, double base_lr) const override {
    return base_lr / std::pow(2.0, epoch);
  }
};

TEST(NnLrScheduler, UserDefinedClosedFormSchedule) {
  optim::Adam adam({zeros({2}).requires_grad_(true)}, 0.8);
  HalvingLR sched(adam);
  EXPECT_EQ(sched.last_epoch(), 0);
  EXPECT_DOUBLE_EQ(lr_of(adam), 0.8);
  sched.step();
  sched.step();
  EXPECT_EQ(sched.last_epoch(), 2);
  EXPECT_DOUBLE_EQ(lr_of(adam), 0.2);
  EXPECT_EQ(sched.get_last_lr(), std::vector<double>{0.2});
}

// LibTorch's own form: get_lrs() from the current lrs, one per group; its constructor does not
// step.
class WarmupLR : public optim::LRScheduler {
 public:
  using LRScheduler::LRScheduler;

 private:
  std::vector<double> get_lrs() override {
    std::vector<double> lrs = get_current_lrs();
    for (double& lr : lrs) lr *= step_count_ < 2 ? 2 : 1;
    return lrs;
  }
};

TEST(NnLrScheduler, LibTorchStyleScheduleSetsEveryGroup) {
  Tensor a = zeros({1}).requires_grad_(true), b = zeros({1}).requires_grad_(true);
  optim::SGD sgd({optim::OptimizerParamGroup({a}),
                  optim::OptimizerParamGroup({b}, std::make_unique<optim::SGDOptions>(0.5))},
                 0.1);
  WarmupLR warmup(sgd);
  EXPECT_DOUBLE_EQ(lr_of(sgd, 0), 0.1);  // not stepped yet
  for (int i = 0; i < 3; ++i) warmup.step();
  EXPECT_DOUBLE_EQ(lr_of(sgd, 0), 0.4);
  EXPECT_DOUBLE_EQ(lr_of(sgd, 1), 2.0);
}

// LibTorch's StepLR decays on the step whose count of earlier steps is a multiple of step_size:
// after k steps the lr is lr * gamma^((k - 1) / step_size), one step later than Python's.
TEST(NnLrScheduler, StepLRIsLibTorchs) {
  optim::SGD sgd({zeros({1}).requires_grad_(true)}, 0.1);
  optim::StepLR sched(sgd, 3, 0.5);
  EXPECT_DOUBLE_EQ(lr_of(sgd), 0.1);
  const double want[] = {0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025, 0.0125};
  for (double lr : want) {
    sched.step();
    EXPECT_DOUBLE_EQ(lr_of(sgd), lr);
  }
}

// ReduceLROnPlateauScheduler: patience 1, cooldown 1, floor 0.02; the values worked by hand.
TEST(NnLrScheduler, ReduceLROnPlateauReducesAfterPatience) {
  optim::SGD sgd({zeros({1}).requires_grad_(true)}, 0.1);
  using Plateau = optim::ReduceLROnPlateauScheduler;
  Plateau sched(sgd, Plateau::min, 0.5, /*patience=*/1, 1e-4, Plateau::rel, /*cooldown=*/1,
                {0.02f});
  // metric:    1.0 best; 0.9 best; 0.95 bad 1; 0.95 bad 2 > 1: lr 0.05, cooldown 1;
  //            0.95 cooling (bad count reset); 0.95 bad 1; 0.95 bad 2: lr 0.025;
  //            0.95 cooling; 0.95 bad 1; 0.95 bad 2: lr max(0.0125, 0.02) = 0.02.
  const float metrics[] = {1.0f, 0.9f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f};
  const double want[] = {0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025, 0.02};
  for (size_t i = 0; i < std::size(metrics); ++i) {
    sched.step(metrics[i]);
    EXPECT_NEAR(lr_of(sgd), want[i], 1e-9) << "step " << i;
  }
  Plateau maximize(sgd, Plateau::max, 0.5, 0, 0.5, Plateau::abs);
  maximize.step(-3.0f);  // any metric beats the first "worst" one, negative too
  maximize.step(-2.6f);  // not better by the absolute threshold 0.5: reduced (patience 0)
  EXPECT_NEAR(lr_of(sgd), 0.01, 1e-9);
  EXPECT_NE(
      error_of<Error>([&] { Plateau(sgd, Plateau::min, 1.5); }).find("Factor should be < 1.0"),
      std::string::npos);
}

// Each check throws a ValueError naming the scheduler, the argument and the value it got.
TEST(NnLrScheduler, InvalidArgumentsThrowValueError) {
  optim::SGD sgd({zeros({1}).requires_grad_(true)}, 0.1);
  using namespace optim;  // NOLINT(google-build-using-namespace)
  const std::vector<std::pair<std::function<void()>, std::vector<std::string>>> checks = {
      {[&] { StepLR(sgd, 0); }, {"[StepLR]", "step_size", "positive", "got 0"}},
      {[&] { StepLR(sgd, 2, -0.5); }, {"[StepLR]", "gamma", "non-negative", "got -0.5"}},
      {[&] {
         MultiStepLR(sgd, {3, -1});
       },
       {"[MultiStepLR]", "milestones", "non-negative", "got -1"}},
      {[&] { ExponentialLR(sgd, NAN); }, {"[ExponentialLR]", "gamma", "non-negative", "got nan"}},
      {[&] { CosineAnnealingLR(sgd, 0); }, {"[CosineAnnealingLR]", "T_max", "positive", "got 0"}},
      {[&] { CosineAnnealingLR(sgd, 10, -1e-3); },
       {"[CosineAnnealingLR]", "eta_min", "non-negative", "got -0.001"}},
      {[&] { LinearLR(sgd, 0.0); }, {"[LinearLR]", "start_factor", "(0, 1]", "got 0"}},
      {[&] { LinearLR(sgd, 1.5); }, {"[LinearLR]", "start_factor", "(0, 1]", "got 1.5"}},
      {[&] { LinearLR(sgd, 0.5, 1.01); }, {"[LinearLR]", "end_factor", "[0, 1]", "got 1.01"}},
      {[&] { LinearLR(sgd, 0.5, -0.1); }, {"[LinearLR]", "end_factor", "[0, 1]", "got -0.1"}},
      {[&] { LinearLR(sgd, 0.5, 1.0, 0); }, {"[LinearLR]", "total_iters", "positive", "got 0"}},
  };
  for (const auto& [fn, parts] : checks) {
    const std::string msg = error_of<ValueError>(fn);
    for (const std::string& part : parts) EXPECT_NE(msg.find(part), std::string::npos) << msg;
  }
  EXPECT_DOUBLE_EQ(lr_of(sgd), 0.1);  // a rejected scheduler leaves the lr alone
}

}  // namespace
}  // namespace ember::test
