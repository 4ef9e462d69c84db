// conv1d: conv2d over [N, C, 1, L] with a [O, C / groups, 1, K] weight, as ATen's conv1d; the
// unit dim's views carry the gradients back to the caller's tensors.
#include <vector>

#include "core/check.h"
#include "ember/nn_ops.h"
#include "ops/pool_windows.h"

namespace ember {

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  EMBER_CHECK_T(ValueError, input.defined() && weight.defined(),
                "[conv1d] input and weight must be defined tensors");
  EMBER_CHECK_T(ValueError, input.dim() == 2 || input.dim() == 3,
                "[conv1d] Expected 2D (unbatched [C, L]) or 3D (batched [N, C, L]) input, but got "
                "input of size ",
                input.sizes(), " (", input.dim(), "-D)");
  EMBER_CHECK_T(ValueError, weight.dim() == 3,
                "[conv1d] expected a 3-D weight [out_channels, in_channels / groups, kW], but got "
                "weight of size ",
                weight.sizes());
  const int64_t s = ops::window_arg("conv1d", "stride", stride, 1, 1)[0];
  const int64_t p = ops::window_arg("conv1d", "padding", padding, 1, 0)[0];
  const int64_t d = ops::window_arg("conv1d", "dilation", dilation, 1, 1)[0];
  return conv2d(input.unsqueeze(-2), weight.unsqueeze(-2), bias, {1, s}, {0, p}, {1, d}, groups)
      .squeeze(-2);
}

}  // namespace ember
