// F::batch_norm with LibTorch's options:
// F::batch_norm(x, mean, var, F::BatchNormFuncOptions().weight(w).bias(b).training(true)).
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/batchnorm.h"

namespace ember::nn::functional {

// Training refuses a batch with one value per channel, as LibTorch.
EMBER_API Tensor batch_norm(const Tensor& input, const Tensor& running_mean,
                            const Tensor& running_var, const BatchNormFuncOptions& options = {});

}  // namespace ember::nn::functional
