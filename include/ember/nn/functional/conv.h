// F::conv1d, F::conv2d and F::conv3d with LibTorch's options: F::conv2d(x, w,
// F::Conv2dFuncOptions().padding(1)), or .padding(kSame) / .padding(kValid).
#pragma once

#include <string>

#include "ember/nn/options/conv.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

namespace detail {
// The padding variant as the op takes it (LibTorch's padding_unwrap): amounts, "valid" or "same".
inline std::string padding_unwrap(enumtype::kValid) { return "valid"; }
inline std::string padding_unwrap(enumtype::kSame) { return "same"; }
template <size_t D>
IntArrayRef padding_unwrap(const ExpandingArray<D>& array) {
  return array;
}

inline Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     ExpandingArray<1> stride, const Conv1dFuncOptions::padding_t& padding,
                     ExpandingArray<1> dilation, int64_t groups) {
  return std::visit(
      [&](const auto& pad) {
        return ember::conv1d(input, weight, bias, stride, padding_unwrap(pad), dilation, groups);
      },
      padding);
}

inline Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     ExpandingArray<2> stride, const Conv2dFuncOptions::padding_t& padding,
                     ExpandingArray<2> dilation, int64_t groups) {
  return std::visit(
      [&](const auto& pad) {
        return ember::conv2d(input, weight, bias, stride, padding_unwrap(pad), dilation, groups);
      },
      padding);
}

inline Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     ExpandingArray<3> stride, const Conv3dFuncOptions::padding_t& padding,
                     ExpandingArray<3> dilation, int64_t groups) {
  return std::visit(
      [&](const auto& pad) {
        return ember::conv3d(input, weight, bias, stride, padding_unwrap(pad), dilation, groups);
      },
      padding);
}
}  // namespace detail

inline Tensor conv1d(const Tensor& input, const Tensor& weight,
                     const Conv1dFuncOptions& options = {}) {
  return detail::conv1d(input, weight, options.bias(), options.stride(), options.padding(),
                        options.dilation(), options.groups());
}

inline Tensor conv2d(const Tensor& input, const Tensor& weight,
                     const Conv2dFuncOptions& options = {}) {
  return detail::conv2d(input, weight, options.bias(), options.stride(), options.padding(),
                        options.dilation(), options.groups());
}

inline Tensor conv3d(const Tensor& input, const Tensor& weight,
                     const Conv3dFuncOptions& options = {}) {
  return detail::conv3d(input, weight, options.bias(), options.stride(), options.padding(),
                        options.dilation(), options.groups());
}

}  // namespace ember::nn::functional
