// Options of the convolutions (ConvOptions<D>, Conv1dOptions, Conv2dOptions) and of
// F::conv1d / F::conv2d (Conv1dFuncOptions, Conv2dFuncOptions), as LibTorch's
// torch/nn/options/conv.h (without padding_mode: zero padding only).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ember/arg.h"
#include "ember/nn/expanding_array.h"
#include "ember/tensor.h"

namespace ember::nn {

template <size_t D>
struct ConvOptions {
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  EMBER_ARG(int64_t, in_channels);
  EMBER_ARG(int64_t, out_channels);
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride) = 1;
  EMBER_ARG(ExpandingArray<D>, padding) = 0;
  EMBER_ARG(ExpandingArray<D>, dilation) = 1;
  EMBER_ARG(int64_t, groups) = 1;
  EMBER_ARG(bool, bias) = true;
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;

namespace functional {
template <size_t D>
struct ConvFuncOptions {
  EMBER_ARG(Tensor, bias) = Tensor();
  EMBER_ARG(ExpandingArray<D>, stride) = 1;
  EMBER_ARG(ExpandingArray<D>, padding) = 0;
  EMBER_ARG(ExpandingArray<D>, dilation) = 1;
  EMBER_ARG(int64_t, groups) = 1;
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;
}  // namespace functional

}  // namespace ember::nn
