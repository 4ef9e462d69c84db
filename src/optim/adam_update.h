// What Adam and AdamW share: the checks of their options and the update of one parameter, fused
// (Note [Fused optimizer steps]) except under AMSGrad.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "ember/autograd.h"
#include "ember/optim/optimizer.h"
#include "optim/closure.h"

namespace ember::optim {

struct AdamSettings {
  double lr, beta1, beta2, eps, weight_decay;
  bool amsgrad;
  bool decoupled;  // AdamW: p *= 1 - lr * weight_decay instead of grad += weight_decay * p

  template <class Options>  // AdamOptions or AdamWOptions
  static AdamSettings of(const Options& o, bool decoupled) {
    return {o.lr(),   std::get<0>(o.betas()), std::get<1>(o.betas()),
            o.eps(),  o.weight_decay(),       o.amsgrad(),
            decoupled};
  }
};

// LibTorch's checks of the defaults, with its messages.
void check_adam_settings(const AdamSettings& s);

// One update of p (which has a gradient) whose state has counted `step` updates, this one
// included; the moments start as zeros.
void adam_update(Tensor& p, const AdamSettings& s, int64_t step, Tensor& exp_avg,
                 Tensor& exp_avg_sq, Tensor& max_exp_avg_sq);

// Adam's and AdamW's step: the closure's loss, then every parameter with a gradient, each group
// with its own options, each parameter with its state (AdamParamState or AdamWParamState) from
// `state_of`.
template <class Options, class StateOf>
Tensor adam_step(const Optimizer::LossClosure& closure, std::vector<OptimizerParamGroup>& groups,
                 bool decoupled, const StateOf& state_of) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (OptimizerParamGroup& group : groups) {
    const auto settings = AdamSettings::of(static_cast<const Options&>(group.options()), decoupled);
    for (Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto& state = state_of(p);
      state.step(state.step() + 1);
      adam_update(p, settings, state.step(), state.exp_avg(), state.exp_avg_sq(),
                  state.max_exp_avg_sq());
    }
  }
  return loss;
}

}  // namespace ember::optim
