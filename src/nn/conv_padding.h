// Conv1d/Conv2d's padding_mode, as LibTorch's ConvNdImpl applies it: a mode other than kZeros pads
// the input with F::pad (the padding reversed, each entry twice: last dim first) and the
// convolution then runs unpadded. Shared by src/nn/conv1d.cpp and src/nn/layers.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "ember/nn/functional/padding.h"
#include "ember/nn/options/conv.h"

namespace ember::nn::detail {

template <size_t D>
Tensor pad_for_conv(const Tensor& input, const conv_padding_mode_t& mode,
                    const std::array<int64_t, D>& padding) {
  std::vector<int64_t> widths;
  for (size_t d = D; d-- > 0;) widths.insert(widths.end(), 2, padding[d]);
  functional::PadFuncOptions::mode_t pad_mode = kCircular;
  if (std::holds_alternative<enumtype::kReflect>(mode)) pad_mode = kReflect;
  if (std::holds_alternative<enumtype::kReplicate>(mode)) pad_mode = kReplicate;
  return functional::pad(input, functional::PadFuncOptions(widths).mode(pad_mode));
}

}  // namespace ember::nn::detail
