// F::instance_norm with LibTorch's options:
// F::instance_norm(x, F::InstanceNormFuncOptions().weight(w).bias(b).use_input_stats(true)).
#pragma once

#include "ember/nn/options/instancenorm.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor instance_norm(const Tensor& input, const InstanceNormFuncOptions& options = {}) {
  return ember::instance_norm(input, options.weight(), options.bias(), options.running_mean(),
                              options.running_var(), options.use_input_stats(), options.momentum(),
                              options.eps(), /*cudnn_enabled=*/false);
}

}  // namespace ember::nn::functional
