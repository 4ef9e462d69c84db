// Options of Fold and Unfold and their F:: forms, as LibTorch's torch/nn/options/fold.h.
#pragma once

#include "ember/arg.h"
#include "ember/nn/expanding_array.h"

namespace ember::nn {

struct FoldOptions {
  FoldOptions(ExpandingArray<2> output_size, ExpandingArray<2> kernel_size)
      : output_size_(output_size), kernel_size_(kernel_size) {}
  EMBER_ARG(ExpandingArray<2>, output_size);
  EMBER_ARG(ExpandingArray<2>, kernel_size);
  EMBER_ARG(ExpandingArray<2>, dilation) = 1;
  EMBER_ARG(ExpandingArray<2>, padding) = 0;
  EMBER_ARG(ExpandingArray<2>, stride) = 1;
};

struct UnfoldOptions {
  /* implicit */ UnfoldOptions(ExpandingArray<2> kernel_size)  // NOLINT
      : kernel_size_(kernel_size) {}
  EMBER_ARG(ExpandingArray<2>, kernel_size);
  EMBER_ARG(ExpandingArray<2>, dilation) = 1;
  EMBER_ARG(ExpandingArray<2>, padding) = 0;
  EMBER_ARG(ExpandingArray<2>, stride) = 1;
};

namespace functional {
using FoldFuncOptions = FoldOptions;
using UnfoldFuncOptions = UnfoldOptions;
}  // namespace functional

}  // namespace ember::nn
