// Options of max pooling (MaxPoolOptions<D>, MaxPool2dOptions, F's MaxPool2dFuncOptions), as
// LibTorch's torch/nn/options/pooling.h.
#pragma once

#include <cstddef>

#include "ember/arg.h"
#include "ember/nn/expanding_array.h"

namespace ember::nn {

template <size_t D>
struct MaxPoolOptions {
  /* implicit */ MaxPoolOptions(ExpandingArray<D> kernel_size)  // NOLINT
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride);  // the kernel size unless set
  EMBER_ARG(ExpandingArray<D>, padding) = 0;
  EMBER_ARG(ExpandingArray<D>, dilation) = 1;
  EMBER_ARG(bool, ceil_mode) = false;
};
using MaxPool2dOptions = MaxPoolOptions<2>;

namespace functional {
using MaxPool2dFuncOptions = MaxPool2dOptions;
}  // namespace functional

}  // namespace ember::nn
