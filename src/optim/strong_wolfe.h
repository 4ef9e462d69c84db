// LBFGS's optional line search (line_search_fn "strong_wolfe"): PyTorch's port of torch7's
// lswolfe.lua, with the scalars in double as LibTorch's.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "ember/tensor.h"

namespace ember::optim {

// The loss and the flat gradient at x + t d (the parameters are restored afterwards).
using DirectionalEvaluate = std::function<std::pair<double, Tensor>(double t)>;

struct LineSearchResult {
  double loss;
  Tensor flat_grad;
  double t;  // the step length found
  int64_t func_evals;
};

// A step length t along d satisfying the strong Wolfe conditions (sufficient decrease c1,
// curvature c2), from the first guess t, the loss f, the flat gradient g and the directional
// derivative gtd at t = 0: a bracketing phase, then a zoom by cubic interpolation, in at most
// max_ls evaluations.
LineSearchResult strong_wolfe(const DirectionalEvaluate& evaluate, double t, const Tensor& d,
                              double f, const Tensor& g, double gtd, double c1 = 1e-4,
                              double c2 = 0.9, double tolerance_change = 1e-9, int max_ls = 25);

}  // namespace ember::optim
