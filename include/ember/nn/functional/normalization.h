// F::layer_norm and F::normalize with LibTorch's options.
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/normalization.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return ember::layer_norm(input, options.normalized_shape(), options.weight(), options.bias(),
                           options.eps());
}

// input / max(||input||_p over dim, eps), written into options.out() when set.
EMBER_API Tensor normalize(const Tensor& input, NormalizeFuncOptions options = {});

}  // namespace ember::nn::functional
