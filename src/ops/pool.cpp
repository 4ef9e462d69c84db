// The 1-d and 2-d pools. max_pool2d: values and argmax indices from max_pool2d_stub (the
// backward scatter-adds each output's gradient into its argmax). avg_pool2d: im2col of every
// channel plane, summed and divided by each window's divisor (ops/pool_windows.h); the backward
// spreads grad / divisor back with col2im. The 1-d pools are these over [*, C, 1, L], as ATen's.
#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

#include "autograd/functions/conv.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/pool_ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/conv_stubs.h"
#include "ops/pool_windows.h"
#include "ops/window_args.h"

namespace ember {
namespace {

using kernels::Window2d;

// The checked window of a pooling op over [N, C, H, W] or [C, H, W].
Window2d pool_window(const char* op, const Tensor& input, IntArrayRef kernel_size,
                     IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil) {
  EMBER_CHECK_T(ValueError, input.defined(), "[", op, "] input is an undefined tensor");
  EMBER_CHECK_T(ValueError, input.dim() == 3 || input.dim() == 4, "[", op,
                "] Expected 3D (unbatched [C, H, W]) or 4D (batched [N, C, H, W]) input, but got "
                "input of size ",
                input.sizes(), " (", input.dim(), "-D)");
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()), "[", op,
                "] expected a floating-point input, got ", input.scalar_type());
  const auto k = ops::window_arg(op, "kernel_size", kernel_size, 2, 1);
  const auto s = stride.empty() ? k : ops::window_arg(op, "stride", stride, 2, 1);
  const auto p = ops::window_arg(op, "padding", padding, 2, 0),
             d = ops::window_arg(op, "dilation", dilation, 2, 1);
  for (int i = 0; i < 2; ++i)
    EMBER_CHECK_T(ValueError, p[i] <= (d[i] * (k[i] - 1) + 1) / 2, "[", op,
                  "] pad should be at most half of effective kernel size, but got pad=", p[i],
                  ", kernel_size=", k[i], " and dilation=", d[i]);
  const int64_t h = input.size(-2), w = input.size(-1);
  Window2d win{h,
               w,
               k[0],
               k[1],
               s[0],
               s[1],
               p[0],
               p[1],
               d[0],
               d[1],
               ops::pooled_size(h, k[0], p[0], s[0], d[0], ceil),
               ops::pooled_size(w, k[1], p[1], s[1], d[1], ceil)};
  EMBER_CHECK_T(ValueError, win.out_h >= 1 && win.out_w >= 1, "[", op, "] Given input size ",
                input.sizes(), ", calculated output size (", win.out_h, " x ", win.out_w,
                ") is too small: kernel_size ", kernel_size, " with dilation ", dilation,
                " and padding ", padding, " does not fit; use a smaller kernel or more padding");
  return win;
}

std::vector<int64_t> out_shape(const Tensor& input, const Window2d& w) {
  std::vector<int64_t> shape = input.sizes().vec();
  shape[shape.size() - 2] = w.out_h;
  shape[shape.size() - 1] = w.out_w;
  return shape;
}

// The window arguments of a 1-d pool as its 2-d form over [*, C, 1, L] takes them, after checking
// them (and the input) under the 1-d op's name.
struct Pool1dAs2d {
  std::vector<int64_t> kernel_size, stride, padding, dilation;
};
Pool1dAs2d pool1d_as_2d(const char* op, const Tensor& input, IntArrayRef kernel_size,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                        bool ceil_mode) {
  ops::check_pool_input(op, input, 1);
  ops::sliding_axes(op, input, 1, kernel_size, stride, padding, dilation, ceil_mode, true);
  const int64_t k = kernel_size[0];
  return {{1, k}, {1, stride.empty() ? k : stride[0]}, {0, padding[0]}, {1, dilation[0]}};
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  Window2d w = pool_window("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode);
  const int64_t planes = input.numel() / (w.height * w.width);
  std::vector<int64_t> shape = out_shape(input, w);
  Tensor out = empty(shape, input.options());
  Tensor indices = empty(shape, TensorOptions(kInt64).device(input.device()));
  if (out.numel() > 0)
    kernels::max_pool2d_stub(input.device().type(),
                             input.contiguous().view({planes, w.height, w.width}), out, indices, w);
  if (autograd::needs_grad(input))  // each output's gradient goes to its window's argmax
    autograd::record(
        {out}, {input}, {indices},
        autograd::functions::MaxPool2DWithIndicesBackward0{{w, planes, input.sizes().vec()}});
  return {out, indices};
}

Tensor max_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode));
}

std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  Pool1dAs2d a =
      pool1d_as_2d("max_pool1d", input, kernel_size, stride, padding, dilation, ceil_mode);
  auto [out, indices] = max_pool2d_with_indices(input.unsqueeze(-2), a.kernel_size, a.stride,
                                                a.padding, a.dilation, ceil_mode);
  return {out.squeeze(-2), indices.squeeze(-2)};
}

Tensor max_pool1d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor avg_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  EMBER_CHECK_T(ValueError, !divisor_override || *divisor_override != 0,
                "[avg_pool2d] divisor must be not zero");
  Window2d w = pool_window("avg_pool2d", input, kernel_size, stride, padding, 1, ceil_mode);
  const int64_t planes = input.numel() / (w.height * w.width), l = w.out_h * w.out_w;
  const std::vector<ops::PoolAxis> axes{
      ops::sliding_axis(w.height, w.kh, w.sh, w.ph, 1, ceil_mode, count_include_pad),
      ops::sliding_axis(w.width, w.kw, w.sw, w.pw, 1, ceil_mode, count_include_pad)};
  // Whole windows everywhere (the common case) average through mean, which divides before its
  // one rounding to the input's dtype, as the kernels' emulation expects (half included).
  auto whole = [](const ops::PoolAxis& axis) {
    return std::all_of(axis.count.begin(), axis.count.end(),
                       [&axis](int64_t count) { return count == axis.taps; });
  };
  const bool whole_windows = !divisor_override && whole(axes[0]) && whole(axes[1]);
  const bool grad = autograd::needs_grad(input);
  // Each window's divisor (out_h * out_w values): for partial windows and for backward only.
  Tensor divisor =
      whole_windows && !grad ? Tensor() : ops::window_divisor(input, axes, divisor_override);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    Tensor cols = empty({planes, w.kh * w.kw, l}, input.options());
    if (cols.numel() > 0)
      kernels::im2col_stub(input.device().type(),
                           input.contiguous().view({planes, 1, w.height, w.width}), cols, w);
    out = (whole_windows ? cols.mean({1}) : cols.sum({1}) / divisor.view({1, l}))
              .view(out_shape(input, w));
  }
  if (grad)  // every tap of a window gets grad / divisor
    autograd::record({out}, {input}, {divisor},
                     autograd::functions::AvgPool2DBackward0{{w, planes, input.sizes().vec()}});
  return out;
}

Tensor avg_pool1d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  Pool1dAs2d a = pool1d_as_2d("avg_pool1d", input, kernel_size, stride, padding, 1, ceil_mode);
  return avg_pool2d(input.unsqueeze(-2), a.kernel_size, a.stride, a.padding, ceil_mode,
                    count_include_pad)
      .squeeze(-2);
}

}  // namespace ember
