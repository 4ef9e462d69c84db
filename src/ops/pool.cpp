// max_pool2d (values and argmax indices from max_pool2d_stub; the backward scatter-adds each
// output's gradient into its argmax) and avg_pool2d (im2col of every channel plane and a mean;
// the backward spreads grad / (kH * kW) back with col2im).
#include <array>
#include <vector>

#include "autograd/functions/conv.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/conv_stubs.h"
#include "ops/window_args.h"

namespace ember {
namespace {

using kernels::Window2d;
using ops::pair_arg;

// PyTorch's pooling_output_shape.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;  // the last window must start inside
  return out;
}

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
  auto k = pair_arg(op, "kernel_size", kernel_size, 1);
  auto s = stride.empty() ? k : pair_arg(op, "stride", stride, 1);
  auto p = pair_arg(op, "padding", padding, 0), d = pair_arg(op, "dilation", dilation, 1);
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
               pooled_size(h, k[0], p[0], s[0], d[0], ceil),
               pooled_size(w, k[1], p[1], s[1], d[1], ceil)};
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

}  // namespace

Tensor max_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
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
  return out;
}

Tensor avg_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding) {
  Window2d w = pool_window("avg_pool2d", input, kernel_size, stride, padding, 1, false);
  const int64_t planes = input.numel() / (w.height * w.width), l = w.out_h * w.out_w;
  const int64_t taps = w.kh * w.kw;
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    Tensor cols = empty({planes, taps, l}, input.options());
    if (cols.numel() > 0)
      kernels::im2col_stub(input.device().type(),
                           input.contiguous().view({planes, 1, w.height, w.width}), cols, w);
    out = cols.mean({1}).view(out_shape(input, w));
  }
  if (autograd::needs_grad(input))  // every tap of a window gets grad / (kH * kW)
    autograd::record({out}, {input}, {},
                     autograd::functions::AvgPool2DBackward0{{w, planes, input.sizes().vec()}});
  return out;
}

}  // namespace ember
