// F::fold and F::unfold (and the Fold and Unfold layers' pretty_print): col2im and im2col, the
// differentiable tensor ops behind conv2d (ops/conv_gemm.h), with PyTorch's shape checks.
#include "ember/nn/fold.h"

#include <array>
#include <ostream>

#include "core/check.h"
#include "kernels/conv_stubs.h"
#include "ops/conv_gemm.h"
#include "ops/window_args.h"

namespace ember::nn {

namespace {

// The window of a fold or unfold over an image of `height` x `width`; the block grid is checked
// by the caller (its message differs between the two).
kernels::Window2d fold_window_of(const char* op, int64_t height, int64_t width,
                                 IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                                 IntArrayRef stride) {
  const auto k = ops::window_arg(op, "kernel_size", kernel_size, 2, 1);
  const auto d = ops::window_arg(op, "dilation", dilation, 2, 1);
  const auto p = ops::window_arg(op, "padding", padding, 2, 0);
  const auto s = ops::window_arg(op, "stride", stride, 2, 1);
  kernels::Window2d w{height, width, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1], 0, 0};
  // A negative numerator (a kernel wider than the padded image) is no block at all.
  const int64_t span_h = height + 2 * p[0] - d[0] * (k[0] - 1) - 1;
  const int64_t span_w = width + 2 * p[1] - d[1] * (k[1] - 1) - 1;
  w.out_h = span_h < 0 ? 0 : span_h / s[0] + 1;
  w.out_w = span_w < 0 ? 0 : span_w / s[1] + 1;
  return w;
}

}  // namespace

Tensor functional::fold(const Tensor& input, const FoldFuncOptions& options) {
  EMBER_CHECK_T(ValueError, input.dim() == 3 || input.dim() == 2,
                "[fold] Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                "supported (got ",
                input.dim(), "D); give [N, C * kh * kw, L] or [C * kh * kw, L]");
  const bool batched = input.dim() == 3;
  const ExpandingArray<2>& size = options.output_size();
  const ExpandingArray<2>& kernel = options.kernel_size();
  kernels::Window2d w = fold_window_of("fold", (*size)[0], (*size)[1], kernel, options.dilation(),
                                       options.padding(), options.stride());
  EMBER_CHECK_T(ValueError, (*size)[0] > 0 && (*size)[1] > 0,
                "[fold] output_size must be positive, got ", size);
  const int64_t rows = input.size(batched ? 1 : 0), blocks = input.size(batched ? 2 : 1);
  const int64_t taps = w.kh * w.kw;
  EMBER_CHECK_T(ValueError, rows % taps == 0, "[fold] Expected size of input's dimension ",
                batched ? 1 : 0,
                " to be divisible by the product of kernel_size, but got input.size(",
                batched ? 1 : 0, ")=", rows, " and kernel_size=(", w.kh, ", ", w.kw, ")");
  EMBER_CHECK_T(ValueError, w.out_h >= 1 && w.out_w >= 1 && blocks == w.out_h * w.out_w,
                "[fold] Given output_size=(", w.height, ", ", w.width, "), kernel_size=(", w.kh,
                ", ", w.kw, "), dilation=(", w.dh, ", ", w.dw, "), padding=(", w.ph, ", ", w.pw,
                "), stride=(", w.sh, ", ", w.sw, "), expected size of input's dimension ",
                batched ? 2 : 1, " to match the calculated number of sliding blocks ", w.out_h,
                " * ", w.out_w, " = ", w.out_h * w.out_w, ", but got input.size(", batched ? 2 : 1,
                ")=", blocks);
  Tensor cols = batched ? input : input.unsqueeze(0);
  Tensor out = ops::col2im(cols, {cols.size(0), rows / taps, w.height, w.width}, w);
  return batched ? out : out.squeeze(0);
}

Tensor functional::unfold(const Tensor& input, const UnfoldFuncOptions& options) {
  EMBER_CHECK_T(ValueError, input.dim() == 4,
                "[unfold] Input Error: Only 4D input Tensors are supported (got ", input.dim(),
                "D); give [N, C, H, W] (unsqueeze(0) an unbatched image)");
  kernels::Window2d w =
      fold_window_of("unfold", input.size(2), input.size(3), options.kernel_size(),
                     options.dilation(), options.padding(), options.stride());
  EMBER_CHECK_T(ValueError, w.out_h >= 1 && w.out_w >= 1,
                "[unfold] Given input with spatial size (", w.height, ", ", w.width,
                "), kernel_size=(", w.kh, ", ", w.kw, "), dilation=(", w.dh, ", ", w.dw,
                "), padding=(", w.ph, ", ", w.pw,
                "), calculated shape of the array of sliding "
                "blocks as (",
                w.out_h, ", ", w.out_w, "), but its components must be at least one");
  return ops::im2col(input, w);
}

void FoldImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Fold(output_size=" << options.output_size()
         << ", kernel_size=" << options.kernel_size() << ", dilation=" << options.dilation()
         << ", padding=" << options.padding() << ", stride=" << options.stride() << ")";
}

void UnfoldImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Unfold(kernel_size=" << options.kernel_size()
         << ", dilation=" << options.dilation() << ", padding=" << options.padding()
         << ", stride=" << options.stride() << ")";
}

}  // namespace ember::nn
