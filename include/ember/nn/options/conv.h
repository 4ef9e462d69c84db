// Options of the convolutions (ConvOptions<D>, Conv1dOptions, Conv2dOptions, Conv3dOptions) and
// of F::conv1d / F::conv2d / F::conv3d (Conv{1,2,3}dFuncOptions), as LibTorch's
// torch/nn/options/conv.h, padding_mode and the kValid / kSame paddings included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <variant>

#include "ember/arg.h"
#include "ember/enum.h"
#include "ember/nn/expanding_array.h"
#include "ember/tensor.h"

namespace ember::nn {

using conv_padding_mode_t =
    std::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;
// A convolution's padding, as LibTorch's detail::conv_padding_t: per-dim amounts, kValid (none)
// or kSame (the output as long as the input: dilation * (kernel - 1) per dim, the odd element on
// the right; stride 1 only).
template <size_t D>
using conv_padding_t = std::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;

template <size_t D>
struct ConvOptions {
  using padding_mode_t = conv_padding_mode_t;
  using padding_t = conv_padding_t<D>;
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  EMBER_ARG(int64_t, in_channels);
  EMBER_ARG(int64_t, out_channels);
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride) = 1;
  EMBER_ARG(padding_t, padding) = 0;

 public:
  // .padding({1, 2}): a braced list is no variant.
  decltype(auto) padding(std::initializer_list<int64_t> il) { return padding(IntArrayRef{il}); }
  EMBER_ARG(ExpandingArray<D>, dilation) = 1;
  EMBER_ARG(int64_t, groups) = 1;
  EMBER_ARG(bool, bias) = true;
  EMBER_ARG(padding_mode_t, padding_mode) = kZeros;
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;

namespace functional {
template <size_t D>
struct ConvFuncOptions {
  using padding_t = conv_padding_t<D>;
  EMBER_ARG(Tensor, bias) = Tensor();
  EMBER_ARG(ExpandingArray<D>, stride) = 1;
  EMBER_ARG(padding_t, padding) = 0;

 public:
  // .padding({1, 2}): a braced list is no variant.
  decltype(auto) padding(std::initializer_list<int64_t> il) { return padding(IntArrayRef{il}); }
  EMBER_ARG(ExpandingArray<D>, dilation) = 1;
  EMBER_ARG(int64_t, groups) = 1;
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;
using Conv3dFuncOptions = ConvFuncOptions<3>;
}  // namespace functional

}  // namespace ember::nn
