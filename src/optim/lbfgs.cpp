// optim::LBFGS: LibTorch's (and PyTorch's) algorithm, ported step by step: two-loop recursion
// over the last history_size curvature pairs, the first step scaled by the gradient's L1 norm, a
// fixed step or the strong Wolfe line search, and the same stopping tests in the same order.
#include "ember/optim/lbfgs.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "optim/closure.h"
#include "optim/strong_wolfe.h"

namespace ember::optim {

LBFGS::LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<LBFGSOptions>(defaults)) {
  EMBER_CHECK(param_groups_.size() == 1,
              "LBFGS doesn't support per-parameter options (parameter groups)");
  if (!defaults.max_eval().has_value()) {
    const int64_t max_eval = defaults.max_iter() * 5 / 4;
    static_cast<LBFGSOptions&>(param_groups_[0].options()).max_eval(max_eval);
    static_cast<LBFGSOptions&>(*defaults_).max_eval(max_eval);
  }
}

Tensor LBFGS::gather_flat_grad() const {
  std::vector<Tensor> views;
  for (const Tensor& p : param_groups_[0].params()) {
    views.push_back(p.grad().defined() ? p.grad().reshape({-1}) : zeros({p.numel()}, p.options()));
  }
  return cat(views, 0);
}

void LBFGS::add_grad(double step_size, const Tensor& update) {
  int64_t offset = 0;
  for (Tensor& p : param_groups_[0].params()) {
    const int64_t numel = p.numel();
    p.add_(update.slice(0, offset, offset + numel).view_as(p), step_size);
    offset += numel;
  }
}

std::vector<Tensor> LBFGS::clone_param() const {
  std::vector<Tensor> copies;
  for (const Tensor& p : param_groups_[0].params()) copies.push_back(p.clone());
  return copies;
}

void LBFGS::set_param(const std::vector<Tensor>& params_data) {
  std::vector<Tensor>& params = param_groups_[0].params();
  for (size_t i = 0; i < params.size(); ++i) params[i].copy_(params_data[i]);
}

namespace {

double largest_magnitude(const Tensor& t) { return t.abs().max().item<double>(); }

// The two-loop recursion: the direction -H g from the stored curvature pairs (s, y) and 1 / y.s.
Tensor lbfgs_direction(const Tensor& flat_grad, LBFGSParamState& state, int64_t history_size) {
  const std::deque<Tensor>& old_dirs = state.old_dirs();
  const std::deque<Tensor>& old_stps = state.old_stps();
  const std::deque<Tensor>& ro = state.ro();
  if (!state.al().has_value()) state.al(std::vector<Tensor>(static_cast<size_t>(history_size)));
  std::vector<Tensor>& al = *state.al();
  const auto num_old = static_cast<int64_t>(old_dirs.size());
  Tensor q = flat_grad.neg();
  for (int64_t i = num_old - 1; i >= 0; --i) {
    const auto k = static_cast<size_t>(i);
    al[k] = old_stps[k].dot(q) * ro[k];
    q.add_(old_dirs[k], -al[k].item<double>());
  }
  Tensor r = mul(q, state.H_diag());
  for (size_t i = 0; i < old_dirs.size(); ++i) {
    const Tensor be_i = old_dirs[i].dot(r) * ro[i];
    r.add_(old_stps[i], (al[i] - be_i).item<double>());
  }
  return r;
}

// Stores the curvature pair of the last step when it keeps the Hessian estimate positive definite.
void update_history(const Tensor& flat_grad, LBFGSParamState& state, int64_t history_size) {
  const Tensor y = flat_grad.sub(state.prev_flat_grad());
  const Tensor s = state.d().mul(state.t());
  const Tensor ys = y.dot(s);
  if (ys.item<double>() <= 1e-10) return;
  if (static_cast<int64_t>(state.old_dirs().size()) == history_size) {
    state.old_dirs().pop_front();
    state.old_stps().pop_front();
    state.ro().pop_front();
  }
  state.old_dirs().push_back(y);
  state.old_stps().push_back(s);
  state.ro().push_back(1. / ys);
  state.H_diag(ys / y.dot(y));
}

}  // namespace

Tensor LBFGS::step(LossClosure closure) {
  NoGradGuard no_grad;
  EMBER_CHECK(closure != nullptr, "LBFGS requires a closure function");
  const auto& o = static_cast<const LBFGSOptions&>(param_groups_[0].options());
  EMBER_CHECK(!o.line_search_fn().has_value() || *o.line_search_fn() == "strong_wolfe",
              "only 'strong_wolfe' is supported");
  LBFGSParamState& state = state_of<LBFGSParamState>(param_groups_[0].params().at(0));

  const Tensor orig_loss = evaluate(closure);
  double loss = orig_loss.item<double>();
  int64_t current_evals = 1;
  state.func_evals(state.func_evals() + 1);
  Tensor flat_grad = gather_flat_grad();
  bool opt_cond = largest_magnitude(flat_grad) <= o.tolerance_grad();
  if (opt_cond) return orig_loss;  // already optimal

  for (int64_t n_iter = 1; n_iter <= o.max_iter(); ++n_iter) {
    state.n_iter(state.n_iter() + 1);
    if (state.n_iter() == 1) {
      state.d(flat_grad.neg());
      state.old_dirs({});
      state.old_stps({});
      state.ro({});
      state.H_diag(ones({}, flat_grad.options()));
    } else {
      update_history(flat_grad, state, o.history_size());
      state.d(lbfgs_direction(flat_grad, state, o.history_size()));
    }
    if (!state.prev_flat_grad().defined()) state.prev_flat_grad(flat_grad.clone());
    else state.prev_flat_grad().copy_(flat_grad);
    state.prev_loss(loss);

    // The first step is scaled down by the gradient's L1 norm, later ones are lr.
    double t = state.n_iter() == 1
                   ? std::min(1., 1. / flat_grad.abs().sum().item<double>()) * o.lr()
                   : o.lr();
    const Tensor& d = state.d();
    const double gtd = flat_grad.dot(d).item<double>();  // the directional derivative
    if (gtd > -o.tolerance_change()) {
      state.t(t);
      break;
    }

    int64_t ls_func_evals = 0;
    if (o.line_search_fn().has_value()) {
      const std::vector<Tensor> x_init = clone_param();
      const LineSearchResult found = strong_wolfe(
          [&](double step) {
            add_grad(step, d);
            std::pair<double, Tensor> at_step{evaluate(closure).item<double>(), gather_flat_grad()};
            set_param(x_init);
            return at_step;
          },
          t, d, loss, flat_grad, gtd);
      loss = found.loss;
      flat_grad = found.flat_grad;
      t = found.t;
      ls_func_evals = found.func_evals;
      add_grad(t, d);
      opt_cond = largest_magnitude(flat_grad) <= o.tolerance_grad();
    } else {
      add_grad(t, d);
      if (n_iter != o.max_iter()) {  // the last iteration's loss is not needed: no evaluation
        loss = evaluate(closure).item<double>();
        flat_grad = gather_flat_grad();
        opt_cond = largest_magnitude(flat_grad) <= o.tolerance_grad();
        ls_func_evals = 1;
      }
    }
    state.t(t);
    current_evals += ls_func_evals;
    state.func_evals(state.func_evals() + ls_func_evals);

    if (n_iter == o.max_iter()) break;
    if (current_evals >= *o.max_eval()) break;
    if (opt_cond) break;
    if (largest_magnitude(d.mul(t)) <= o.tolerance_change()) break;  // no progress
    if (std::abs(loss - state.prev_loss()) < o.tolerance_change()) break;
  }
  return orig_loss;
}

}  // namespace ember::optim
