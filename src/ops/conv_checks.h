// The argument checks conv2d and conv3d share, as ATen's convolution checks its operands: defined
// tensors on one device, an input of `spatial` + 1 (unbatched) or + 2 dims, a weight
// [out_channels, in_channels / groups, kernel...], one floating dtype, groups that divide the
// channels and a bias of out_channels. (conv1d is conv2d over a unit dim; the transposed
// convolutions' weight is laid out the other way round and they check it themselves.)
#pragma once

#include <cstdint>

#include "ember/tensor.h"

namespace ember::ops {

// Throws an ember::Error naming `op` ("conv2d") on the first argument that fails; returns whether
// the input has its batch dim.
bool check_conv_args(const char* op, int64_t spatial, const Tensor& input, const Tensor& weight,
                     const Tensor& bias, int64_t groups);

// The length along one dim of a transposed convolution's output, before output_padding: the input
// positions spread `stride` apart, the kernel's reach added, the padding taken off both ends.
inline int64_t conv_transpose_size(int64_t in, int64_t kernel, int64_t stride, int64_t padding,
                                   int64_t dilation) {
  return (in - 1) * stride - 2 * padding + dilation * (kernel - 1) + 1;
}

}  // namespace ember::ops
