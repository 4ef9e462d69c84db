// conv2d: im2col (a kernel behind im2col_stub) and one batched matmul (Note [Convolution as a
// gemm] in ops/conv_gemm.h), recorded as a single ConvolutionBackward0 node whose formula is
// col2im of W^T @ grad, grad @ cols^T and a sum.
#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "autograd/functions/conv.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/threading.h"
#include "kernels/conv_stubs.h"
#include "kernels/tensor_iter.h"
#include "ops/conv_checks.h"
#include "ops/conv_gemm.h"
#include "ops/window_args.h"

namespace ember {

using kernels::Window2d;

Tensor ops::im2col(const Tensor& x, const Window2d& w) {
  Tensor input = x.contiguous();
  Tensor cols = empty({x.size(0), x.size(1) * w.kh * w.kw, w.out_h * w.out_w}, x.options());
  if (cols.numel() > 0) kernels::im2col_stub(x.device().type(), input, cols, w);
  if (autograd::needs_grad(x))
    autograd::record({cols}, {x}, {}, autograd::functions::Im2ColBackward0{w, x.sizes().vec()});
  return cols;
}

Tensor ops::col2im(const Tensor& cols, IntArrayRef shape, const Window2d& w) {
  Tensor out = zeros(shape, cols.options());
  if (cols.numel() > 0 && out.numel() > 0)
    kernels::col2im_stub(out.device().type(), cols.contiguous(), out, w);
  if (autograd::needs_grad(cols))
    autograd::record({out}, {cols}, {}, autograd::functions::Col2ImBackward0{w});
  return out;
}

bool ops::conv_per_image(const Tensor& x, const ConvSizes& s) {
#ifdef EMBER_HAVE_BLAS
  const ScalarType t = x.scalar_type();
  return x.device().is_cpu() && (t == kFloat32 || t == kFloat64) && s.n >= get_num_threads() &&
         std::min({s.k, s.l, s.o}) > 0 &&  // BLAS's leading dimensions are at least 1
         std::max({s.k, s.l, s.o}) <= std::numeric_limits<int>::max();
#else
  (void)x;
  (void)s;
  return false;
#endif
}

namespace {

Tensor conv2d_forward(const Tensor& x, const Tensor& weight, const Tensor& bias, const Window2d& w,
                      int64_t groups) {
  autograd::NoGradGuard no_grad;  // im2col and the product are this op's own node
  ops::ConvSizes s(x, weight, w, groups);
  if (ops::conv_per_image(x, s)) {
    Tensor out = empty({s.n, s.o, w.out_h, w.out_w}, x.options());
    kernels::conv2d_stub(DeviceType::CPU, x.contiguous(), weight.contiguous(),
                         bias.defined() ? bias.contiguous() : bias, out, w, groups);
    return out;
  }
  Tensor cols = ops::im2col(x, w).view({s.n, s.g, s.k, s.l});
  Tensor out = matmul(weight.reshape({1, s.g, s.o / s.g, s.k}), cols);
  out = out.reshape({s.n, s.o, w.out_h, w.out_w});
  if (bias.defined()) out.add_(bias.view({1, s.o, 1, 1}));
  return out;
}

}  // namespace

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = ops::check_conv_args("conv2d", 2, input, weight, bias, groups);
  const auto st = ops::window_arg("conv2d", "stride", stride, 2, 1),
             pad = ops::window_arg("conv2d", "padding", padding, 2, 0),
             dil = ops::window_arg("conv2d", "dilation", dilation, 2, 1);
  const int64_t h = input.size(-2), wd = input.size(-1);
  const int64_t eff_h = dil[0] * (weight.size(2) - 1) + 1,
                eff_w = dil[1] * (weight.size(3) - 1) + 1;
  EMBER_CHECK_T(ValueError, h + 2 * pad[0] >= eff_h && wd + 2 * pad[1] >= eff_w,
                "[conv2d] Calculated padded input size per channel: (", h + 2 * pad[0], " x ",
                wd + 2 * pad[1], "). Kernel size: (", eff_h, " x ", eff_w,
                "). Kernel size can't be greater than actual input size (input of size ",
                input.sizes(), ", weight of size ", weight.sizes(), ", padding ", padding,
                ", dilation ", dilation, "); use a smaller kernel or more padding");
  Window2d w{h,
             wd,
             weight.size(2),
             weight.size(3),
             st[0],
             st[1],
             pad[0],
             pad[1],
             dil[0],
             dil[1],
             (h + 2 * pad[0] - eff_h) / st[0] + 1,
             (wd + 2 * pad[1] - eff_w) / st[1] + 1};

  Tensor x = batched ? input : input.unsqueeze(0);  // a view: its gradient flows back
  Tensor out = conv2d_forward(x, weight, bias, w, groups);
  if (autograd::needs_grad(x, weight, bias))
    autograd::record({out}, {x, weight, bias}, {x, weight},
                     autograd::functions::ConvolutionBackward0{w, groups});
  return batched ? out : out.squeeze(0);
}

}  // namespace ember
