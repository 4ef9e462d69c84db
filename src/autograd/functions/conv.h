// Backward formulas of conv2d (ops/conv.cpp) and the pools (ops/pool.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "autograd/record.h"
#include "ops/conv_gemm.h"

namespace ember::autograd::functions {

// ConvolutionBackward0: d input = col2im(W^T @ grad), d weight = grad @ im2col(input)^T summed
// over the batch, d bias = grad summed (Note [Convolution as a gemm]). Saves the input and the
// weight.
struct ConvolutionBackward0 {
  static constexpr const char* kName = "ConvolutionBackward0";
  kernels::Window2d window;
  int64_t groups;
  Grads operator()(const Context& c) const;
};

// Im2ColBackward0 and Col2ImBackward0: im2col and col2im are each other's adjoints, so each
// one's gradient is the other. ConvolutionBackward0's and AvgPool2DBackward0's formulas are
// built from them, which makes those formulas differentiable again. Save nothing.
struct Im2ColBackward0 {
  static constexpr const char* kName = "Im2ColBackward0";
  kernels::Window2d window;
  std::vector<int64_t> input;  // the image's shape
  Grads operator()(const Context& c) const;
};
struct Col2ImBackward0 {
  static constexpr const char* kName = "Col2ImBackward0";
  kernels::Window2d window;
  Grads operator()(const Context& c) const;
};

// What a pool's formula knows of its shapes.
struct PoolShape {
  kernels::Window2d window;
  int64_t planes;              // N * C: the [H, W] planes pooled
  std::vector<int64_t> input;  // the input's shape
};

// MaxPool2DWithIndicesBackward0: each output's gradient added into its window's argmax. Saves
// the argmax indices.
struct MaxPool2DWithIndicesBackward0 {
  static constexpr const char* kName = "MaxPool2DWithIndicesBackward0";
  PoolShape pool;
  Grads operator()(const Context& c) const;
};

// AvgPool2DBackward0: every tap of a window gets its output's gradient / the window's divisor,
// through col2im. Saves the divisors ([out_h, out_w]).
struct AvgPool2DBackward0 {
  static constexpr const char* kName = "AvgPool2DBackward0";
  PoolShape pool;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
