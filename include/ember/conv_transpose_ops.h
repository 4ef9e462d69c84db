// Transposed convolutions with PyTorch's semantics (torch.conv_transpose1d/2d/3d, LibTorch's
// argument order): the adjoint of conv1d/2d/3d, sometimes called "deconvolution". All are
// differentiable and run on every device.
#pragma once

#include <cstdint>

#include "ember/array_ref.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember {

// 2-D transposed convolution. input [N, C_in, H, W] or unbatched [C_in, H, W]; weight
// [C_in, C_out / groups, kH, kW]; bias [C_out] or undefined. stride, padding, output_padding and
// dilation take one value (both dims) or two (height, width). The output's size per dim is
// (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1, output_padding
// being smaller than stride or dilation. Float types only.
EMBER_API Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                                  const Tensor& bias = Tensor(), IntArrayRef stride = 1,
                                  IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                                  int64_t groups = 1, IntArrayRef dilation = 1);

// 1-D: input [N, C_in, L] or [C_in, L]; weight [C_in, C_out / groups, kW]; one value per
// argument.
EMBER_API Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                                  const Tensor& bias = Tensor(), IntArrayRef stride = 1,
                                  IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                                  int64_t groups = 1, IntArrayRef dilation = 1);

// 3-D: input [N, C_in, D, H, W] or [C_in, D, H, W]; weight [C_in, C_out / groups, kD, kH, kW];
// one value per argument or three (depth, height, width).
EMBER_API Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                                  const Tensor& bias = Tensor(), IntArrayRef stride = 1,
                                  IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                                  int64_t groups = 1, IntArrayRef dilation = 1);

}  // namespace ember
