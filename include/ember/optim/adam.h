// optim::Adam as LibTorch's: bias-corrected moment estimates, L2 weight decay added to the
// gradient, and AMSGrad's running maximum of the second moment.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "ember/arg.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

struct EMBER_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3) : lr_(lr) {}  // NOLINT(google-explicit-constructor)
  EMBER_ARG(double, lr) = 1e-3;
  using betas_t = std::tuple<double, double>;
  EMBER_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  EMBER_ARG(double, eps) = 1e-8;
  EMBER_ARG(double, weight_decay) = 0;
  EMBER_ARG(bool, amsgrad) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void serialize(serialize::OutputArchive& archive) const override;
  void serialize(serialize::InputArchive& archive) override;
};

// step counts this parameter's own updates (PyTorch's state['step']): a parameter without a
// gradient (frozen, or unused this step) is not updated, and its bias corrections use its count.
struct EMBER_API AdamParamState : public OptimizerCloneableParamState<AdamParamState> {
  EMBER_ARG(int64_t, step) = 0;
  EMBER_ARG(Tensor, exp_avg);
  EMBER_ARG(Tensor, exp_avg_sq);
  EMBER_ARG(Tensor, max_exp_avg_sq) = {};

 public:
  void serialize(serialize::OutputArchive& archive) const override;
  void serialize(serialize::InputArchive& archive) override;
};

class EMBER_API Adam : public Optimizer {
 public:
  explicit Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {})
      : Adam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
             std::move(defaults)) {}
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<AdamParamState>();
  }
};

}  // namespace ember::optim
