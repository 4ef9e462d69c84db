// conv_transpose1d/2d/3d composed from differentiable ops, no kernel of their own (Note
// [Transposed convolution as col2im]); autograd and every device come with the ops.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/check.h"
#include "ember/conv_transpose_ops.h"
#include "ember/linalg.h"
#include "ember/nn/functional/fold.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "ops/conv_checks.h"

namespace ember {

// Note [Transposed convolution as col2im]
// conv2d is im2col, then W @ cols; its adjoint in the input, the transposed convolution, is
// cols = W^T @ x, then col2im (F::fold) of those columns. Per group g, W^T is
// [C_out/g * kH * kW, C_in/g] and x [C_in/g, H * W]: one batched matmul gives, for every input
// position, the block it spreads over the output. Folding the blocks with the stride and the
// dilation and no padding gives the full output, (in - 1) * stride + dilation * (k - 1) + 1 per
// dim; the padding then crops each side and output_padding gives back that many rows at the
// end (zeros where nothing reaches them), one constant_pad_nd with negative (cropping) widths.
// 1-D is 2-D with a unit height. 3-D folds twice: the 2-D step over (H, W) takes the depth into
// the batch and the depth taps into the channels (the weight [C_in, C_out/g, kD, kH, kW] read
// as [C_in, C_out/g * kD, kH, kW]); then the depth is folded as a [D_full, 1] image whose
// "channels" are (C_out, H, W).

namespace {

// One value for every dim or `dims` values, each at least `min`, as ATen's expand_param_if_needed.
std::vector<int64_t> convt_param(const char* op, const char* name, IntArrayRef v, size_t dims,
                                 int64_t min, const char* bound) {
  EMBER_CHECK_T(ValueError, v.size() == 1 || v.size() == dims, "[", op, "] expected ", name,
                " to be a single integer value or a list of ", dims,
                " values to match the convolution dimensions, but got ", name, "=", v);
  std::vector<int64_t> values(dims, v[0]);
  if (v.size() == dims) values.assign(v.begin(), v.end());
  for (int64_t value : values)
    EMBER_CHECK_T(ValueError, value >= min, "[", op, "] ", bound, ", got ", name, "=", v);
  return values;
}

// "5 x 5": the sizes of the spatial dims, as ATen's messages write them.
std::string convt_sizes(const std::vector<int64_t>& sizes) {
  std::string s;
  for (size_t d = 0; d < sizes.size(); ++d) s += (d ? " x " : "") + std::to_string(sizes[d]);
  return s;
}

// The spatial dims' names, for the output_padding message ("height", or "depth", "height",
// "width").
const char* convt_dim_name(size_t dims, size_t d) {
  static const char* const names[] = {"depth", "height", "width"};
  return names[3 - dims + d];
}

// x [N, C_in, H, W], w [C_in, C_out / groups, kH, kW] -> the unpadded transposed convolution
// [N, C_out, (H - 1) * sH + dH * (kH - 1) + 1, (W - 1) * sW + dW * (kW - 1) + 1].
Tensor convt_full_2d(const Tensor& x, const Tensor& w, int64_t groups, int64_t sh, int64_t sw,
                     int64_t dh, int64_t dw) {
  const int64_t n = x.size(0), c_in = x.size(1), h = x.size(2), wd = x.size(3);
  const int64_t kh = w.size(2), kw = w.size(3), c_out = w.size(1) * groups;
  const int64_t rows = w.size(1) * kh * kw;  // per group
  Tensor wt = w.reshape({groups, c_in / groups, rows}).transpose(1, 2);
  Tensor cols = matmul(wt, x.reshape({n, groups, c_in / groups, h * wd}));
  const int64_t full_h = (h - 1) * sh + dh * (kh - 1) + 1;
  const int64_t full_w = (wd - 1) * sw + dw * (kw - 1) + 1;
  return nn::functional::fold(cols.reshape({n, c_out * kh * kw, h * wd}),
                              nn::functional::FoldFuncOptions({full_h, full_w}, {kh, kw})
                                  .stride({sh, sw})
                                  .dilation({dh, dw}));
}

// The checks of ATen's convolution for a transposed one over `dims` spatial dims, then the
// output: the full transposed convolution (convt_full_2d, twice for 3-D), cropped by padding,
// extended by output_padding, plus the bias.
Tensor convt_nd(const char* op, size_t dims, const Tensor& input, const Tensor& weight,
                const Tensor& bias, IntArrayRef stride_arg, IntArrayRef padding_arg,
                IntArrayRef output_padding_arg, int64_t groups, IntArrayRef dilation_arg) {
  EMBER_CHECK_T(ValueError, input.defined() && weight.defined(), "[", op,
                "] input and weight must be defined tensors");
  const int64_t batched_dim = static_cast<int64_t>(dims) + 2;
  EMBER_CHECK_T(ValueError, input.dim() == batched_dim - 1 || input.dim() == batched_dim, "[", op,
                "] Expected ", batched_dim - 1, "D (unbatched) or ", batched_dim,
                "D (batched) input to ", op, ", but got input of size: ", input.sizes(),
                "; add a batch dim with unsqueeze(0) or reshape it");
  EMBER_CHECK_T(ValueError, weight.dim() == batched_dim, "[", op, "] expected a ", batched_dim,
                "-D weight [in_channels, out_channels / groups, kernel...], but got weight of "
                "size ",
                weight.sizes());
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()), "[", op,
                "] expected a floating-point input, got ", input.scalar_type(),
                "; convert it with .to(kFloat32)");
  EMBER_CHECK_T(TypeError, input.scalar_type() == weight.scalar_type(), "[", op, "] Input type (",
                input.scalar_type(), ") and weight type (", weight.scalar_type(),
                ") should be the same; convert one of them with .to()");
  EMBER_CHECK_T(ValueError, input.device() == weight.device(), "[", op,
                "] Expected all tensors to be on the same device, but got input on ",
                input.device(), " and weight on ", weight.device(), "; move one with .to()");
  EMBER_CHECK_T(ValueError, groups > 0, "[", op, "] non-positive groups is not supported, got ",
                groups);
  const std::vector<int64_t> stride =
      convt_param(op, "stride", stride_arg, dims, 1, "non-positive stride is not supported");
  const std::vector<int64_t> padding =
      convt_param(op, "padding", padding_arg, dims, 0, "negative padding is not supported");
  const std::vector<int64_t> output_padding =
      convt_param(op, "output_padding", output_padding_arg, dims, 0,
                  "negative output_padding is not supported");
  const std::vector<int64_t> dilation =
      convt_param(op, "dilation", dilation_arg, dims, 1, "dilation should be greater than zero");
  EMBER_CHECK_T(ValueError, weight.size(0) % groups == 0, "[", op, "] Given groups=", groups,
                ", expected weight to be divisible by ", groups,
                " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  const bool batched = input.dim() == batched_dim;
  const int64_t channels = input.size(batched ? 1 : 0);
  EMBER_CHECK_T(ValueError, channels == weight.size(0), "[", op,
                "] Given transposed=1, weight of size ", weight.sizes(), ", expected input",
                input.sizes(), " to have ", weight.size(0), " channels, but got ", channels,
                " channels instead; a transposed convolution's weight is [in_channels, "
                "out_channels / groups, kernel...]");
  const int64_t out_channels = weight.size(1) * groups;
  if (bias.defined()) {
    EMBER_CHECK_T(ValueError, bias.dim() == 1 && bias.size(0) == out_channels, "[", op,
                  "] Given transposed=1, weight of size ", weight.sizes(),
                  ", expected bias to be 1-dimensional with ", out_channels,
                  " elements, but got bias of size ", bias.sizes(), " instead");
    EMBER_CHECK_T(TypeError, bias.scalar_type() == input.scalar_type(), "[", op, "] bias type (",
                  bias.scalar_type(), ") and input type (", input.scalar_type(),
                  ") should be the same");
    EMBER_CHECK_T(ValueError, bias.device() == input.device(), "[", op,
                  "] Expected all tensors to be on the same device, but got input on ",
                  input.device(), " and bias on ", bias.device());
  }
  bool small_enough = true;
  for (size_t d = 0; d < dims; ++d)
    small_enough =
        small_enough && (output_padding[d] < stride[d] || output_padding[d] < dilation[d]);
  if (!small_enough) {
    std::string got;
    for (const char* name : {"output_padding", "stride", "dilation"}) {
      const std::vector<int64_t>& v = name[0] == 'o'   ? output_padding
                                      : name[0] == 's' ? stride
                                                       : dilation;
      for (size_t d = 0; d < dims; ++d)
        got +=
            std::string(" ") + name + "_" + convt_dim_name(dims, d) + ": " + std::to_string(v[d]);
    }
    EMBER_CHECK_T(ValueError, false, "[", op,
                  "] output padding must be smaller than either stride or dilation, but got", got,
                  "; use a smaller output_padding");
  }
  const int64_t first = batched ? 2 : 1;
  std::vector<int64_t> in_size(dims), out_size(dims);
  bool positive = true;
  for (size_t d = 0; d < dims; ++d) {
    in_size[d] = input.size(first + static_cast<int64_t>(d));
    out_size[d] = ops::conv_transpose_size(in_size[d], weight.size(2 + static_cast<int64_t>(d)),
                                           stride[d], padding[d], dilation[d]) +
                  output_padding[d];
    positive = positive && out_size[d] > 0;
    EMBER_CHECK_T(ValueError, in_size[d] > 0, "[", op,
                  "] Only zero batch or zero channel inputs are supported, but got input shape: ",
                  input.sizes());
  }
  EMBER_CHECK_T(ValueError, positive, "[", op, "] Given input size per channel: (",
                convt_sizes(in_size), "). Calculated output size per channel: (",
                convt_sizes(out_size), "). Output size is too small; use less padding");

  Tensor x = batched ? input : input.unsqueeze(0);  // a view: its gradient flows back
  const int64_t n = x.size(0);
  Tensor full;
  if (dims == 1) {
    full = convt_full_2d(x.unsqueeze(2), weight.unsqueeze(2), groups, 1, stride[0], 1, dilation[0])
               .squeeze(2);
  } else if (dims == 2) {
    full = convt_full_2d(x, weight, groups, stride[0], stride[1], dilation[0], dilation[1]);
  } else {
    const int64_t depth = x.size(2), kd = weight.size(2);
    // (H, W): the depth into the batch, the depth taps into the channels.
    Tensor planes =
        x.permute({0, 2, 1, 3, 4}).reshape({n * depth, x.size(1), x.size(3), x.size(4)});
    Tensor w2 =
        weight.reshape({weight.size(0), weight.size(1) * kd, weight.size(3), weight.size(4)});
    Tensor hw = convt_full_2d(planes, w2, groups, stride[1], stride[2], dilation[1], dilation[2]);
    const int64_t full_h = hw.size(2), full_w = hw.size(3);
    // The depth: blocks [N, C_out * H * W * kD, D] folded into [D_full, 1].
    Tensor blocks = hw.reshape({n, depth, out_channels, kd, full_h, full_w})
                        .permute({0, 2, 4, 5, 3, 1})
                        .reshape({n, out_channels * full_h * full_w * kd, depth});
    const int64_t full_d = (depth - 1) * stride[0] + dilation[0] * (kd - 1) + 1;
    full = nn::functional::fold(blocks, nn::functional::FoldFuncOptions({full_d, 1}, {kd, 1})
                                            .stride({stride[0], 1})
                                            .dilation({dilation[0], 1}))
               .reshape({n, out_channels, full_h, full_w, full_d})
               .permute({0, 1, 4, 2, 3});
  }
  std::vector<int64_t> crop;  // (left, right) pairs from the last dim
  for (size_t d = dims; d-- > 0;) {
    crop.push_back(-padding[d]);
    crop.push_back(output_padding[d] - padding[d]);
  }
  Tensor out = constant_pad_nd(full, crop);
  if (bias.defined()) {
    std::vector<int64_t> shape(dims + 2, 1);
    shape[1] = out_channels;
    out = out + bias.view(shape);
  }
  return batched ? out : out.squeeze(0);
}

}  // namespace

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return convt_nd("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding,
                  groups, dilation);
}

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return convt_nd("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding,
                  groups, dilation);
}

Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return convt_nd("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding,
                  groups, dilation);
}

}  // namespace ember
