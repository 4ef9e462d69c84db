// The pools with LibTorch's options: F::max_pool2d(x, F::MaxPool2dFuncOptions(2)),
// F::avg_pool3d(x, F::AvgPool3dFuncOptions(3).stride(2).ceil_mode(true)), ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/macros.h"
#include "ember/nn/options/pooling.h"
#include "ember/pool_ops.h"

namespace ember::nn::functional {

inline Tensor avg_pool1d(const Tensor& input, const AvgPool1dFuncOptions& options) {
  return ember::avg_pool1d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.ceil_mode(), options.count_include_pad());
}
inline Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& options) {
  return ember::avg_pool2d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.ceil_mode(), options.count_include_pad(),
                           options.divisor_override());
}
inline Tensor avg_pool3d(const Tensor& input, const AvgPool3dFuncOptions& options) {
  return ember::avg_pool3d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.ceil_mode(), options.count_include_pad(),
                           options.divisor_override());
}

inline std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& input,
                                                          const MaxPool1dFuncOptions& options) {
  return ember::max_pool1d_with_indices(input, options.kernel_size(), options.stride(),
                                        options.padding(), options.dilation(), options.ceil_mode());
}
inline std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input,
                                                          const MaxPool2dFuncOptions& options) {
  return ember::max_pool2d_with_indices(input, options.kernel_size(), options.stride(),
                                        options.padding(), options.dilation(), options.ceil_mode());
}
inline std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& input,
                                                          const MaxPool3dFuncOptions& options) {
  return ember::max_pool3d_with_indices(input, options.kernel_size(), options.stride(),
                                        options.padding(), options.dilation(), options.ceil_mode());
}
inline Tensor max_pool1d(const Tensor& input, const MaxPool1dFuncOptions& options) {
  return ember::max_pool1d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.dilation(), options.ceil_mode());
}
inline Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options) {
  return ember::max_pool2d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.dilation(), options.ceil_mode());
}
inline Tensor max_pool3d(const Tensor& input, const MaxPool3dFuncOptions& options) {
  return ember::max_pool3d(input, options.kernel_size(), options.stride(), options.padding(),
                           options.dilation(), options.ceil_mode());
}

namespace detail {
// LibTorch's _list_with_default: the output size, an unset value keeping the input's size.
template <size_t D>
std::vector<int64_t> output_size_or_input(const ExpandingArrayWithOptionalElem<D>& output_size,
                                          const Tensor& input) {
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < D; ++i) {
    const int64_t dim = input.dim() - static_cast<int64_t>(D - i);
    sizes.push_back((*output_size)[i] ? *(*output_size)[i] : input.size(dim));
  }
  return sizes;
}
// LibTorch's _unpool_output_size: the pooled dims of options.output_size (given as all of the
// result's dims or as its pooled dims), else (in - 1) * stride + kernel_size - 2 * padding.
EMBER_API std::vector<int64_t> unpool_output_size(
    const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
    const std::optional<std::vector<int64_t>>& output_size);
}  // namespace detail

inline Tensor adaptive_avg_pool1d(const Tensor& input,
                                  const AdaptiveAvgPool1dFuncOptions& options) {
  return ember::adaptive_avg_pool1d(input, options.output_size());
}
inline Tensor adaptive_avg_pool2d(const Tensor& input,
                                  const AdaptiveAvgPool2dFuncOptions& options) {
  return ember::adaptive_avg_pool2d(input,
                                    detail::output_size_or_input(options.output_size(), input));
}
inline Tensor adaptive_avg_pool3d(const Tensor& input,
                                  const AdaptiveAvgPool3dFuncOptions& options) {
  return ember::adaptive_avg_pool3d(input,
                                    detail::output_size_or_input(options.output_size(), input));
}

inline std::tuple<Tensor, Tensor> adaptive_max_pool1d_with_indices(
    const Tensor& input, const AdaptiveMaxPool1dFuncOptions& options) {
  return ember::adaptive_max_pool1d(input, options.output_size());
}
inline std::tuple<Tensor, Tensor> adaptive_max_pool2d_with_indices(
    const Tensor& input, const AdaptiveMaxPool2dFuncOptions& options) {
  return ember::adaptive_max_pool2d(input,
                                    detail::output_size_or_input(options.output_size(), input));
}
inline std::tuple<Tensor, Tensor> adaptive_max_pool3d_with_indices(
    const Tensor& input, const AdaptiveMaxPool3dFuncOptions& options) {
  return ember::adaptive_max_pool3d(input,
                                    detail::output_size_or_input(options.output_size(), input));
}
inline Tensor adaptive_max_pool1d(const Tensor& input,
                                  const AdaptiveMaxPool1dFuncOptions& options) {
  return std::get<0>(adaptive_max_pool1d_with_indices(input, options));
}
inline Tensor adaptive_max_pool2d(const Tensor& input,
                                  const AdaptiveMaxPool2dFuncOptions& options) {
  return std::get<0>(adaptive_max_pool2d_with_indices(input, options));
}
inline Tensor adaptive_max_pool3d(const Tensor& input,
                                  const AdaptiveMaxPool3dFuncOptions& options) {
  return std::get<0>(adaptive_max_pool3d_with_indices(input, options));
}

inline Tensor max_unpool1d(const Tensor& input, const Tensor& indices,
                           const MaxUnpool1dFuncOptions& options) {
  std::vector<int64_t> size = detail::unpool_output_size(
      input, options.kernel_size(), options.stride(), options.padding(), options.output_size());
  return ember::max_unpool2d(input.unsqueeze(-2), indices.unsqueeze(-2), {1, size[0]}).squeeze(-2);
}
inline Tensor max_unpool2d(const Tensor& input, const Tensor& indices,
                           const MaxUnpool2dFuncOptions& options) {
  return ember::max_unpool2d(
      input, indices,
      detail::unpool_output_size(input, options.kernel_size(), options.stride(), options.padding(),
                                 options.output_size()));
}
inline Tensor max_unpool3d(const Tensor& input, const Tensor& indices,
                           const MaxUnpool3dFuncOptions& options) {
  return ember::max_unpool3d(
      input, indices,
      detail::unpool_output_size(input, options.kernel_size(), options.stride(), options.padding(),
                                 options.output_size()),
      options.stride(), options.padding());
}

// The p-norm of every window: (sum x^p)^(1/p), through avg_pool of x^p times the window size,
// as LibTorch's (a window whose sum of x^p is negative gives 0).
EMBER_API Tensor lp_pool1d(const Tensor& input, const LPPool1dFuncOptions& options);
EMBER_API Tensor lp_pool2d(const Tensor& input, const LPPool2dFuncOptions& options);

}  // namespace ember::nn::functional
