// F::conv_transpose1d/2d/3d with LibTorch's options: F::conv_transpose2d(x, w,
// F::ConvTranspose2dFuncOptions().stride(2).output_padding(1)).
#pragma once

#include "ember/conv_transpose_ops.h"
#include "ember/nn/options/conv_transpose.h"

namespace ember::nn::functional {

inline Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                               const ConvTranspose1dFuncOptions& options = {}) {
  return ember::conv_transpose1d(input, weight, options.bias(), options.stride(), options.padding(),
                                 options.output_padding(), options.groups(), options.dilation());
}

inline Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                               const ConvTranspose2dFuncOptions& options = {}) {
  return ember::conv_transpose2d(input, weight, options.bias(), options.stride(), options.padding(),
                                 options.output_padding(), options.groups(), options.dilation());
}

inline Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                               const ConvTranspose3dFuncOptions& options = {}) {
  return ember::conv_transpose3d(input, weight, options.bias(), options.stride(), options.padding(),
                                 options.output_padding(), options.groups(), options.dilation());
}

}  // namespace ember::nn::functional
