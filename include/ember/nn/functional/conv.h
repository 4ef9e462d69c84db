// F::conv1d, F::conv2d and F::conv3d with LibTorch's options: F::conv2d(x, w,
// F::Conv2dFuncOptions().padding(1)).
#pragma once

#include "ember/nn/options/conv.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor conv1d(const Tensor& input, const Tensor& weight,
                     const Conv1dFuncOptions& options = {}) {
  return ember::conv1d(input, weight, options.bias(), options.stride(), options.padding(),
                       options.dilation(), options.groups());
}

inline Tensor conv2d(const Tensor& input, const Tensor& weight,
                     const Conv2dFuncOptions& options = {}) {
  return ember::conv2d(input, weight, options.bias(), options.stride(), options.padding(),
                       options.dilation(), options.groups());
}

inline Tensor conv3d(const Tensor& input, const Tensor& weight,
                     const Conv3dFuncOptions& options = {}) {
  return ember::conv3d(input, weight, options.bias(), options.stride(), options.padding(),
                       options.dilation(), options.groups());
}

}  // namespace ember::nn::functional
