// conv3d over conv2d, and the "valid" / "same" string paddings of conv1d/2d/3d.
//
// Note [conv3d as depth taps of conv2d]
// Output depth position od reads input depth od * sd - pd + t * dd at tap t. For one tap those
// positions are a strided slice of the depth-padded input, [N, C, oD, H, W]; folded into the batch,
// [N * oD, C, H, W], they are one conv2d with the tap's weight [O, C / groups, kH, kW], which does
// the height and width (stride, padding, dilation, groups). The taps' results are summed and the
// bias added once. Every step is an existing differentiable op, so autograd and every device come
// with them and no kernel of its own is needed; the cost is kD conv2d calls over copies of the
// input's slices.
#include <array>
#include <string>
#include <vector>

#include "core/check.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ops/conv_checks.h"
#include "ops/window_args.h"

namespace ember {
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = ops::check_conv_args("conv3d", 3, input, weight, bias, groups);
  const int64_t out_channels = weight.size(0);
  const auto st = ops::window_arg("conv3d", "stride", stride, 3, 1),
             pad = ops::window_arg("conv3d", "padding", padding, 3, 0),
             dil = ops::window_arg("conv3d", "dilation", dilation, 3, 1);
  std::array<int64_t, 3> padded{}, eff{};
  bool fits = true;
  for (int64_t i = 0; i < 3; ++i) {
    padded[i] = input.size(i - 3) + 2 * pad[i];
    eff[i] = dil[i] * (weight.size(i + 2) - 1) + 1;
    fits = fits && padded[i] >= eff[i];
  }
  EMBER_CHECK_T(ValueError, fits, "[conv3d] Calculated padded input size per channel: (", padded[0],
                " x ", padded[1], " x ", padded[2], "). Kernel size: (", eff[0], " x ", eff[1],
                " x ", eff[2],
                "). Kernel size can't be greater than actual input size (input of size ",
                input.sizes(), ", weight of size ", weight.sizes(), ", padding ", padding,
                ", dilation ", dilation, "); use a smaller kernel or more padding");

  // Note [conv3d as depth taps of conv2d]
  Tensor x = batched ? input : input.unsqueeze(0);
  const int64_t n = x.size(0), c = x.size(1), h = x.size(3), w = x.size(4);
  const int64_t out_d = (padded[0] - eff[0]) / st[0] + 1;
  if (pad[0] > 0) x = constant_pad_nd(x, {0, 0, 0, 0, pad[0], pad[0]});
  Tensor out;
  for (int64_t t = 0; t < weight.size(2); ++t) {
    const int64_t start = t * dil[0];
    Tensor taps = x.slice(2, start, start + (out_d - 1) * st[0] + 1, st[0])
                      .permute({0, 2, 1, 3, 4})
                      .reshape({n * out_d, c, h, w});
    Tensor y = conv2d(taps, weight.select(2, t), Tensor(), {st[1], st[2]}, {pad[1], pad[2]},
                      {dil[1], dil[2]}, groups);
    out = out.defined() ? out + y : y;
  }
  if (bias.defined()) out = out + bias.view({1, out_channels, 1, 1});
  out = out.reshape({n, out_d, out_channels, out.size(2), out.size(3)})
            .permute({0, 2, 1, 3, 4})
            .contiguous();
  return batched ? out : out.squeeze(0);
}

Tensor detail::conv_padding_string(int64_t dims, const Tensor& input, const Tensor& weight,
                                   const Tensor& bias, IntArrayRef stride, std::string_view padding,
                                   IntArrayRef dilation, int64_t groups) {
  using ConvFn = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                            IntArrayRef, int64_t);
  EMBER_CHECK_T(ValueError, dims >= 1 && dims <= 3,
                "[conv_padding_string] dims must be 1, 2 or 3, got ", dims);
  const ConvFn conv = dims == 1 ? ConvFn(conv1d) : dims == 2 ? ConvFn(conv2d) : ConvFn(conv3d);
  const std::string op = "conv" + std::to_string(dims) + "d";
  EMBER_CHECK_T(ValueError, padding == "valid" || padding == "same", "[", op,
                "] Invalid padding string: '", std::string(padding),
                "'; use \"valid\", \"same\" or integers");
  // "valid", or an input or weight conv checks and rejects itself.
  if (padding == "valid" || !input.defined() || !weight.defined() || weight.dim() != dims + 2 ||
      (input.dim() != dims + 1 && input.dim() != dims + 2))
    return conv(input, weight, bias, stride, 0, dilation, groups);
  for (int64_t s : stride)
    EMBER_CHECK_T(ValueError, s == 1, "[", op,
                  "] padding='same' is not supported for strided convolutions (stride ", stride,
                  "); use stride 1, or integer padding");
  EMBER_CHECK_T(ValueError, dilation.size() == 1 || dilation.size() == static_cast<size_t>(dims),
                "[", op, "] dilation must be one int or ", dims, ", got ", dilation.size(),
                " values ", dilation);
  // ATen's _convolution_same: total padding dilation * (k - 1) per dim, left = total / 2; an odd
  // total puts its extra element on the right with constant_pad_nd.
  std::vector<int64_t> left(static_cast<size_t>(dims)), extra(static_cast<size_t>(2 * dims), 0);
  bool symmetric = true;
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t d = dilation[dilation.size() == 1 ? 0 : static_cast<size_t>(i)];
    EMBER_CHECK_T(ValueError, d >= 1, "[", op, "] dilation must be positive, got ", dilation);
    const int64_t total = d * (weight.size(i + 2) - 1);
    left[static_cast<size_t>(i)] = total / 2;
    extra[static_cast<size_t>(2 * (dims - 1 - i) + 1)] = total - total / 2 - total / 2;
    symmetric = symmetric && total % 2 == 0;
  }
  if (symmetric) return conv(input, weight, bias, stride, left, dilation, groups);
  return conv(constant_pad_nd(input, extra), weight, bias, stride, left, dilation, groups);
}

}  // namespace ember
