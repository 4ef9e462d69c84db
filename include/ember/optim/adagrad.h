// optim::Adagrad as LibTorch's: each element's step divided by the root of the sum of its squared
// gradients so far, with an lr that decays with the step count.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/arg.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

struct EMBER_API AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2) : lr_(lr) {}  // NOLINT(google-explicit-constructor)
  EMBER_ARG(double, lr) = 1e-2;
  EMBER_ARG(double, lr_decay) = 0;
  EMBER_ARG(double, weight_decay) = 0;
  EMBER_ARG(double, initial_accumulator_value) = 0;
  EMBER_ARG(double, eps) = 1e-10;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void serialize(serialize::OutputArchive& archive) const override;
  void serialize(serialize::InputArchive& archive) override;
};

struct EMBER_API AdagradParamState : public OptimizerCloneableParamState<AdagradParamState> {
  EMBER_ARG(Tensor, sum);
  EMBER_ARG(int64_t, step) = 0;

 public:
  void serialize(serialize::OutputArchive& archive) const override;
  void serialize(serialize::InputArchive& archive) override;
};

// As LibTorch's, the constructor makes every parameter's state (sum filled with
// initial_accumulator_value); a group added later gets its state on its first step.
class EMBER_API Adagrad : public Optimizer {
 public:
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults = {});
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {})
      : Adagrad(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
                std::move(defaults)) {}
  Tensor step(LossClosure closure = nullptr) override;

 private:
  AdagradParamState& state_with_sum(const Tensor& p, const AdagradOptions& options);

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<AdagradParamState>();
  }
};

}  // namespace ember::optim
