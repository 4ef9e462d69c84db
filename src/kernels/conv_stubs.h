// Kernel entry points of the convolution and pooling ops: im2col / col2im (conv2d and
// avg_pool2d are one gemm around them) and max pooling with indices. The front halves in
// src/ops/conv.cpp and src/ops/pool.cpp check arguments and allocate; the backends fill the stubs.
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "ember/tensor.h"
#include "kernels/dispatch_stub.h"

namespace ember::kernels {

// The geometry of a 2-D sliding window over one [H, W] plane: kernel, stride, padding,
// dilation, and the output size the front half computed.
struct Window2d {
  int64_t height, width;
  int64_t kh, kw;
  int64_t sh, sw;
  int64_t ph, pw;
  int64_t dh, dw;
  int64_t out_h, out_w;
};

// The input coordinate that output position `out` reads at window tap `tap` along one dim; it
// lies outside [0, size) in the padding. Shared by the CPU and (future) CUDA kernels.
EMBER_HOST_DEVICE inline int64_t window_source(int64_t out, int64_t tap, int64_t stride,
                                               int64_t pad, int64_t dilation) {
  return out * stride - pad + tap * dilation;
}

// input: contiguous [N, C, H, W]; cols: contiguous [N, C * kh * kw, out_h * out_w], row
// (c, i, j) holding input[c, oh * sh - ph + i * dh, ow * sw - pw + j * dw] (0 outside).
using Im2ColFn = void (*)(const Tensor& input, const Tensor& cols, const Window2d& w);
// The adjoint: adds every entry of cols (as im2col laid it out) into out, a contiguous
// [N, C, H, W] that the caller has zeroed.
using Col2ImFn = void (*)(const Tensor& cols, const Tensor& out, const Window2d& w);
// input: contiguous [B, H, W]; out: contiguous [B, out_h, out_w] (input's dtype) gets each
// window's maximum (padding is -inf), indices (int64, same shape) its flat position h * W + w
// within the plane: the first maximum on ties, the last NaN if any (PyTorch's rule).
using MaxPool2dFn = void (*)(const Tensor& input, const Tensor& out, const Tensor& indices,
                             const Window2d& w);

// The gradient of max pooling on the CPU: grad_input (contiguous [B, H, W], input's dtype) gets
// 0, plus each of grad's elements (contiguous [B, out_h, out_w]) at its index's position in the
// plane, in order. (Other devices scatter_add into zeros.)
using MaxPool2dBackwardFn = void (*)(const Tensor& grad, const Tensor& indices,
                                     const Tensor& grad_input, const Window2d& w);
// conv2d as one product per image (Note [Convolution per image] in ops/conv_gemm.h; the CPU with
// a BLAS, float32 and float64): input [N, C, H, W], weight [O, C / groups, kh, kw], bias [O]
// (undefined for none) and out [N, O, out_h, out_w], all contiguous.
using Conv2dFn = void (*)(const Tensor& input, const Tensor& weight, const Tensor& bias,
                          const Tensor& out, const Window2d& w, int64_t groups);
// Its gradients from grad (contiguous, out's shape): grad_input (zeroed by the caller),
// grad_weight and grad_bias, each skipped when undefined.
using Conv2dBackwardFn = void (*)(const Tensor& input, const Tensor& weight, const Tensor& grad,
                                  const Tensor& grad_input, const Tensor& grad_weight,
                                  const Tensor& grad_bias, const Window2d& w, int64_t groups);

inline DispatchStub<Im2ColFn> im2col_stub{"im2col"};
inline DispatchStub<Col2ImFn> col2im_stub{"col2im"};
inline DispatchStub<MaxPool2dFn> max_pool2d_stub{"max_pool2d"};
inline DispatchStub<MaxPool2dBackwardFn> max_pool2d_backward_stub{"max_pool2d_backward"};
inline DispatchStub<Conv2dFn> conv2d_stub{"conv2d"};
inline DispatchStub<Conv2dBackwardFn> conv2d_backward_stub{"conv2d_backward"};

}  // namespace ember::kernels
