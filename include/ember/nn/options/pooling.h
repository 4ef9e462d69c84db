// Options of the pools (AvgPool1dOptions ... LPPool2dOptions) and of their nn::functional forms
// (F::AvgPool2dFuncOptions, F::MaxUnpool2dFuncOptions, ...), as LibTorch's
// torch/nn/options/pooling.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/arg.h"
#include "ember/nn/expanding_array.h"
#include "ember/nn/expanding_array_with_optional.h"

namespace ember::nn {

template <size_t D>
struct AvgPoolOptions {
  /* implicit */ AvgPoolOptions(ExpandingArray<D> kernel_size)  // NOLINT
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride);  // the kernel size unless set
  EMBER_ARG(ExpandingArray<D>, padding) = 0;
  EMBER_ARG(bool, ceil_mode) = false;
  EMBER_ARG(bool, count_include_pad) = true;
  // Every window's divisor when set (avg_pool1d has none: LibTorch's F::avg_pool1d ignores it).
  EMBER_ARG(std::optional<int64_t>, divisor_override) = std::nullopt;
};
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;
using AvgPool3dOptions = AvgPoolOptions<3>;

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
using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;

// output_size_t: ExpandingArray<1>, or ExpandingArrayWithOptionalElem<D> whose unset values
// keep the input's size.
template <class output_size_t>
struct AdaptiveMaxPoolOptions {
  /* implicit */ AdaptiveMaxPoolOptions(output_size_t output_size)  // NOLINT
      : output_size_(output_size) {}
  EMBER_ARG(output_size_t, output_size);
};
using AdaptiveMaxPool1dOptions = AdaptiveMaxPoolOptions<ExpandingArray<1>>;
using AdaptiveMaxPool2dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveMaxPool3dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<3>>;

template <class output_size_t>
struct AdaptiveAvgPoolOptions {
  /* implicit */ AdaptiveAvgPoolOptions(output_size_t output_size)  // NOLINT
      : output_size_(output_size) {}
  EMBER_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool1dOptions = AdaptiveAvgPoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveAvgPool3dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<3>>;

template <size_t D>
struct MaxUnpoolOptions {
  /* implicit */ MaxUnpoolOptions(ExpandingArray<D> kernel_size)  // NOLINT
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride);  // the kernel size unless set
  EMBER_ARG(ExpandingArray<D>, padding) = 0;
};
using MaxUnpool1dOptions = MaxUnpoolOptions<1>;
using MaxUnpool2dOptions = MaxUnpoolOptions<2>;
using MaxUnpool3dOptions = MaxUnpoolOptions<3>;

template <size_t D>
struct LPPoolOptions {
  LPPoolOptions(double norm_type, ExpandingArray<D> kernel_size)
      : norm_type_(norm_type), kernel_size_(kernel_size), stride_(kernel_size) {}
  EMBER_ARG(double, norm_type);
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride);  // the kernel size unless set
  EMBER_ARG(bool, ceil_mode) = false;
};
using LPPool1dOptions = LPPoolOptions<1>;
using LPPool2dOptions = LPPoolOptions<2>;

namespace functional {
using AvgPool1dFuncOptions = AvgPool1dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AvgPool3dFuncOptions = AvgPool3dOptions;
using MaxPool1dFuncOptions = MaxPool1dOptions;
using MaxPool2dFuncOptions = MaxPool2dOptions;
using MaxPool3dFuncOptions = MaxPool3dOptions;
using AdaptiveMaxPool1dFuncOptions = AdaptiveMaxPool1dOptions;
using AdaptiveMaxPool2dFuncOptions = AdaptiveMaxPool2dOptions;
using AdaptiveMaxPool3dFuncOptions = AdaptiveMaxPool3dOptions;
using AdaptiveAvgPool1dFuncOptions = AdaptiveAvgPool1dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;
using AdaptiveAvgPool3dFuncOptions = AdaptiveAvgPool3dOptions;
using LPPool1dFuncOptions = LPPool1dOptions;
using LPPool2dFuncOptions = LPPool2dOptions;

// MaxUnpoolOptions and the size of the result: all of input's dims, or its pooled dims alone;
// unset, (in - 1) * stride + kernel_size - 2 * padding along each pooled dim.
template <size_t D>
struct MaxUnpoolFuncOptions {
  /* implicit */ MaxUnpoolFuncOptions(ExpandingArray<D> kernel_size)  // NOLINT
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  EMBER_ARG(ExpandingArray<D>, kernel_size);
  EMBER_ARG(ExpandingArray<D>, stride);  // the kernel size unless set
  EMBER_ARG(ExpandingArray<D>, padding) = 0;
  EMBER_ARG(std::optional<std::vector<int64_t>>, output_size) = std::nullopt;
};
using MaxUnpool1dFuncOptions = MaxUnpoolFuncOptions<1>;
using MaxUnpool2dFuncOptions = MaxUnpoolFuncOptions<2>;
using MaxUnpool3dFuncOptions = MaxUnpoolFuncOptions<3>;
}  // namespace functional

}  // namespace ember::nn
