// Backward formulas of the losses (ops/loss.cpp). A reduced loss's gradient is spread back over
// its per-element values first (divided by the count for a mean).
#pragma once

#include <vector>

#include "autograd/record.h"
#include "ember/enum.h"

namespace ember::autograd::functions {

// MseLossBackward0: 2 (input - target) times the gradient, negated for the target. Saves the
// input and the target (PyTorch's self and target), so that a second derivative sees both.
struct MseLossBackward0 {
  static constexpr const char* kName = "MseLossBackward0";
  Reduction::Reduction reduction;
  Grads operator()(const Context& c) const;
};

// NllLossBackward0: minus the target's weight times the gradient at each row's target class,
// zero elsewhere and for ignored targets. Saves the safe targets, the negated weights, their
// total (a mean's denominator) and whether each target counts.
struct NllLossBackward0 {
  static constexpr const char* kName = "NllLossBackward0";
  Reduction::Reduction reduction;
  std::vector<int64_t> rows;  // the input's shape as rows: [N * d1 * ..., C]
  Grads operator()(const Context& c) const;
};

// BinaryCrossEntropyWithLogitsBackward0: for the input, sigmoid(x) - y (with pos_weight,
// (1 - y) - L (1 - sigmoid(x)), L = 1 + (pos_weight - 1) y); for the target, -x (with
// pos_weight, -x + (pos_weight - 1) softplus(-x)); both times the weight. Saves the input, the
// target, the weight and pos_weight.
struct BinaryCrossEntropyWithLogitsBackward0 {
  static constexpr const char* kName = "BinaryCrossEntropyWithLogitsBackward0";
  Reduction::Reduction reduction;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
