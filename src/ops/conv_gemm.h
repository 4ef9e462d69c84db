// Convolution as a gemm: im2col and its adjoint col2im as tensor ops, and the sizes that view
// conv2d's operands for one batched matmul. conv2d (ops/conv.cpp) and the convolution and
// pooling gradients (autograd/functions/conv.cpp) use them.
//
// Note [Convolution as a gemm]
// cols = im2col(x) is [N, C * kH * kW, oH * oW]; with groups G it is viewed as
// [N, G, K, L] (K = C / G * kH * kW, L = oH * oW) and the weight as [1, G, O / G, K], so the
// product broadcasts over the batch and runs per group: out[N, G, O / G, L] = W @ cols.
// The backward recomputes cols from the saved input (PyTorch's slow path does the same) rather
// than keeping them alive: they are kH * kW times the size of the input.
#pragma once

#include <cstdint>

#include "ember/array_ref.h"
#include "ember/tensor.h"
#include "kernels/conv_stubs.h"

namespace ember::ops {

// x: [N, C, H, W] -> cols: [N, C * kh * kw, out_h * out_w], laid out as im2col_stub's.
Tensor im2col(const Tensor& x, const kernels::Window2d& w);
// The adjoint: each entry of cols added into the input position it was read from, in a new
// tensor of `shape` ([N, C, H, W]).
Tensor col2im(const Tensor& cols, IntArrayRef shape, const kernels::Window2d& w);

// The sizes of Note [Convolution as a gemm].
struct ConvSizes {
  int64_t n, c, o, g, k, l;
  ConvSizes(const Tensor& x, const Tensor& weight, const kernels::Window2d& w, int64_t groups)
      : n(x.size(0)),
        c(x.size(1)),
        o(weight.size(0)),
        g(groups),
        k(c / groups * w.kh * w.kw),
        l(w.out_h * w.out_w) {}
};

// Note [Convolution per image]
// The batched product above writes every image's columns before the product reads them: N * C *
// kh * kw * out_h * out_w elements (W10's 9 MiB; a [64, 64, 56, 56] input under a 3x3 kernel,
// 441 MiB), and the weight gradient's [N, O, K] products are summed afterwards. On the CPU with
// a BLAS (float32, float64), conv2d_stub and conv2d_backward_stub instead take the images a part
// per thread: each image's columns go to a buffer of the thread's own (one image's, 7 MiB for
// that layer) and straight into its product, the bias is written before the product adds to
// it, and the weight and bias gradients sum into the part's own [O, K] and [O] (PyTorch's
// slow_conv2d works per image too). W10's step takes the same time either way (alternated runs,
// 3.3 to 4.2 ms): the gain is the memory. A batch smaller than the thread count keeps the
// batched product, which splits one image's product over the threads; so does a backward that
// records its own graph (create_graph), since the kernels are not differentiable.
bool conv_per_image(const Tensor& x, const ConvSizes& s);

}  // namespace ember::ops
