// F::layer_norm, F::group_norm, F::local_response_norm and F::normalize with LibTorch's options.
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/normalization.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return ember::layer_norm(input, options.normalized_shape(), options.weight(), options.bias(),
                           options.eps());
}

inline Tensor group_norm(const Tensor& input, const GroupNormFuncOptions& options) {
  return ember::group_norm(input, options.num_groups(), options.weight(), options.bias(),
                           options.eps());
}

// input / (k + alpha * mean of input^2 over `size` neighbouring channels)^beta, the window
// reaching size / 2 channels back and (size - 1) / 2 forward (zeros past the edges); 3-D or more.
EMBER_API Tensor local_response_norm(const Tensor& input,
                                     const LocalResponseNormFuncOptions& options);

// input / max(||input||_p over dim, eps), written into options.out() when set.
EMBER_API Tensor normalize(const Tensor& input, NormalizeFuncOptions options = {});

}  // namespace ember::nn::functional
