// PyTorch's cubic convolution (UpSample.h's cubic_convolution1 and cubic_convolution2, A = -0.75),
// on doubles (F::interpolate's bicubic weights, src/nn/upsampling.cpp) and on Tensors
// (F::grid_sample's bicubic weights, src/nn/vision.cpp): one expression for both, in PyTorch's
// arithmetic order.
#pragma once

namespace ember::nn::detail {

// The weight of a tap at distance x in [0, 1].
template <typename T>
T cubic_convolution1(const T& x) {
  constexpr double kA = -0.75;
  return ((kA + 2) * x - (kA + 3)) * x * x + 1;
}

// The weight of a tap at distance x in [1, 2].
template <typename T>
T cubic_convolution2(const T& x) {
  constexpr double kA = -0.75;
  return ((kA * x - 5 * kA) * x + 8 * kA) * x - 4 * kA;
}

}  // namespace ember::nn::detail
