// Backward formulas of layer_norm and batch_norm (ops/normalization.cpp), in closed form:
//   xhat = (x - mean) * rstd,  gh = grad * weight,
//   dx = rstd * (gh - mean(gh) - xhat * mean(gh * xhat))   (means over the normalised elements),
//   dweight = sum(grad * xhat),  dbias = sum(grad)          (sums over the other elements).
// Eval-mode batch_norm uses constant statistics, so there dx = gh * rstd.
// A create_graph pass recomputes mean and rstd from x with recorded ops: the saved ones were
// computed without a graph, and the second derivative must see that they depend on x.
// float16 and bfloat16 compute in float32 (autograd::in_opmath), as in the forward.
#pragma once

#include <cstdint>
#include <vector>

#include "autograd/record.h"

namespace ember::autograd::functions {

// NativeLayerNormBackward0: the gradients above over [rows, cols] (cols: the normalised
// elements). Saves the input, the weight, and the mean and rstd of each row.
struct NativeLayerNormBackward0 {
  static constexpr const char* kName = "NativeLayerNormBackward0";
  int64_t rows, cols;
  std::vector<int64_t> normalized_shape;
  double eps;
  Grads operator()(const Context& c) const;
};

// NativeBatchNormBackward0: the gradients above per channel, over `dims` (every dim but the
// channel's). Saves the input, the weight, and the mean and rstd of each channel.
struct NativeBatchNormBackward0 {
  static constexpr const char* kName = "NativeBatchNormBackward0";
  bool training;
  double eps;
  std::vector<int64_t> dims;        // 0, 2, 3, ...
  std::vector<int64_t> stat_shape;  // [1, C, 1, ...]: a channel's statistic broadcast
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
