// optim::LBFGS as LibTorch's: limited-memory BFGS over all parameters as one flat vector. Its
// step(closure) re-evaluates the loss up to max_eval times; it takes a single param group.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "ember/arg.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

struct EMBER_API LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
  LBFGSOptions(double lr = 1) : lr_(lr) {}  // NOLINT(google-explicit-constructor)
  EMBER_ARG(double, lr) = 1;
  EMBER_ARG(int64_t, max_iter) = 20;
  EMBER_ARG(std::optional<int64_t>, max_eval) = std::nullopt;  // none: max_iter * 5 / 4
  EMBER_ARG(double, tolerance_grad) = 1e-7;
  EMBER_ARG(double, tolerance_change) = 1e-9;
  EMBER_ARG(int64_t, history_size) = 100;
  EMBER_ARG(std::optional<std::string>, line_search_fn) = std::nullopt;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
};

// LBFGS's state is global; it is stored as the first parameter's, as LibTorch and PyTorch do.
struct EMBER_API LBFGSParamState : public OptimizerCloneableParamState<LBFGSParamState> {
  EMBER_ARG(int64_t, func_evals) = 0;
  EMBER_ARG(int64_t, n_iter) = 0;
  EMBER_ARG(double, t) = 0;
  EMBER_ARG(double, prev_loss) = 0;
  EMBER_ARG(Tensor, d) = {};
  EMBER_ARG(Tensor, H_diag) = {};
  EMBER_ARG(Tensor, prev_flat_grad) = {};
  EMBER_ARG(std::deque<Tensor>, old_dirs);
  EMBER_ARG(std::deque<Tensor>, old_stps);
  EMBER_ARG(std::deque<Tensor>, ro);
  EMBER_ARG(std::optional<std::vector<Tensor>>, al) = std::nullopt;
};

class EMBER_API LBFGS : public Optimizer {
 public:
  explicit LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults = {});
  explicit LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = {})
      : LBFGS(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
              std::move(defaults)) {}
  // The closure is required: it computes the loss and its gradients (zero_grad, forward,
  // backward) and returns the loss. step returns the loss of the first evaluation.
  Tensor step(LossClosure closure) override;

 private:
  Tensor gather_flat_grad() const;
  void add_grad(double step_size, const Tensor& update);
  std::vector<Tensor> clone_param() const;
  void set_param(const std::vector<Tensor>& params_data);
};

}  // namespace ember::optim
