// F::max_pool2d with LibTorch's options: F::max_pool2d(x, F::MaxPool2dFuncOptions(2)).
#pragma once

#include "ember/nn/options/pooling.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options) {
  return ember::max_pool2d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.dilation(), options.ceil_mode());
}

}  // namespace ember::nn::functional
