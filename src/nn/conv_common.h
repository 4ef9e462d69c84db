// What the convolution layers share: PyTorch's initialisation of a convolution's parameters,
// their printed settings (LibTorch's pretty_print, Python's extra_repr), and Conv1d/2d/3d's padding
// and padding_mode, as LibTorch's ConvNdImpl applies them: the padding (amounts, kValid or kSame)
// becomes F::pad widths, last dim first (PyTorch's _reversed_padding_repeated_twice); a mode other
// than kZeros pads the input with F::pad by those widths and the convolution then runs unpadded.
// Shared by src/nn/conv1d.cpp, src/nn/conv3d.cpp, src/nn/conv_transpose.cpp and src/nn/layers.cpp.
#pragma once

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "core/check.h"
#include "ember/array_ref.h"
#include "ember/nn/functional/padding.h"
#include "ember/nn/init.h"
#include "ember/nn/options/conv.h"
#include "ember/tensor.h"

namespace ember::nn::detail {

// PyTorch's _ConvNd.reset_parameters (and _ConvTransposeNd's): kaiming_uniform_ with a = sqrt(5)
// on the weight, the bias uniform in +-1 / sqrt(fan_in), fan_in as the weight's
// (_calculate_fan_in_and_fan_out: for a transposed convolution's [in, out / groups, k...] weight,
// out / groups * prod(k)).
inline void conv_reset_parameters(const Tensor& weight, const Tensor& bias) {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (!bias.defined()) return;
  const double fan_in =
      static_cast<double>(std::get<0>(init::_calculate_fan_in_and_fan_out(weight)));
  init::uniform_(bias, -1.0 / std::sqrt(fan_in), 1.0 / std::sqrt(fan_in));
}

// Python's tuple text, as PyTorch's extra_repr writes it: (3,), (3, 3) or ().
inline std::string python_tuple(IntArrayRef values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s + (values.size() == 1 ? ",)" : ")");
}

// The layer's padding checked (amounts non-negative; kSame only with stride 1, as PyTorch) and
// as F::pad widths: (left, right) per dim, last dim first. kSame splits dilation * (kernel - 1)
// as total / 2 on the left and the rest on the right, as Python's _ConvNd does.
template <size_t D>
std::vector<int64_t> conv_pad_widths(const char* layer, const ConvOptions<D>& options) {
  std::vector<int64_t> widths(2 * D, 0);
  if (const auto* pad = std::get_if<ExpandingArray<D>>(&options.padding())) {
    for (size_t d = 0; d < D; ++d) {
      EMBER_CHECK_T(ValueError, (**pad)[d] >= 0, "[", layer, "] padding must be non-negative, got ",
                    *pad);
      widths[2 * (D - 1 - d)] = widths[2 * (D - 1 - d) + 1] = (**pad)[d];
    }
  } else if (std::holds_alternative<enumtype::kSame>(options.padding())) {
    for (size_t d = 0; d < D; ++d) {
      EMBER_CHECK_T(ValueError, (*options.stride())[d] == 1, "[", layer,
                    "] padding='same' is not supported for strided convolutions (stride ",
                    options.stride(), "); use stride 1, or integer padding");
      const int64_t total = (*options.dilation())[d] * ((*options.kernel_size())[d] - 1);
      widths[2 * (D - 1 - d)] = total / 2;
      widths[2 * (D - 1 - d) + 1] = total - total / 2;
    }
  }
  return widths;
}

// input padded by `widths` (conv_pad_widths) in the padding_mode (not kZeros).
inline Tensor pad_for_conv(const Tensor& input, const conv_padding_mode_t& mode,
                           const std::vector<int64_t>& widths) {
  functional::PadFuncOptions::mode_t pad_mode = kCircular;
  if (std::holds_alternative<enumtype::kReflect>(mode)) pad_mode = kReflect;
  if (std::holds_alternative<enumtype::kReplicate>(mode)) pad_mode = kReplicate;
  return functional::pad(input, functional::PadFuncOptions(widths).mode(pad_mode));
}

// LibTorch's ConvNdImpl::pretty_print for `name` ("Conv2d"): the settings that differ from the
// defaults, padding as 'same', 'valid' or its amounts.
template <size_t D>
void conv_pretty_print(std::ostream& stream, const char* name, const ConvOptions<D>& options) {
  stream << "torch::nn::" << name << "(" << options.in_channels() << ", " << options.out_channels()
         << ", kernel_size=" << options.kernel_size() << ", stride=" << options.stride();
  const conv_padding_t<D>& padding = options.padding();
  if (std::holds_alternative<enumtype::kSame>(padding)) {
    stream << ", padding='same'";
  } else if (std::holds_alternative<enumtype::kValid>(padding)) {
    stream << ", padding='valid'";
  } else if (*std::get<ExpandingArray<D>>(padding) != *ExpandingArray<D>(0)) {
    stream << ", padding=" << std::get<ExpandingArray<D>>(padding);
  }
  if (*options.dilation() != *ExpandingArray<D>(1)) stream << ", dilation=" << options.dilation();
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=false";
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode()))
    stream << ", padding_mode=" << enumtype::get_enum_name(options.padding_mode());
  stream << ")";
}

// Python's _ConvNd.extra_repr: "1, 8, kernel_size=(3, 3), stride=(1, 1)" and the settings that
// differ from the defaults, padding as same, valid or a tuple, padding_mode in lower case.
template <size_t D>
std::string conv_extra_repr(const ConvOptions<D>& options, bool has_bias) {
  std::string s = std::to_string(options.in_channels()) + ", " +
                  std::to_string(options.out_channels()) +
                  ", kernel_size=" + python_tuple(options.kernel_size()) +
                  ", stride=" + python_tuple(options.stride());
  const conv_padding_t<D>& padding = options.padding();
  if (std::holds_alternative<enumtype::kSame>(padding)) {
    s += ", padding=same";
  } else if (std::holds_alternative<enumtype::kValid>(padding)) {
    s += ", padding=valid";
  } else if (*std::get<ExpandingArray<D>>(padding) != *ExpandingArray<D>(0)) {
    s += ", padding=" + python_tuple(std::get<ExpandingArray<D>>(padding));
  }
  if (*options.dilation() != *ExpandingArray<D>(1))
    s += ", dilation=" + python_tuple(options.dilation());
  if (options.groups() != 1) s += ", groups=" + std::to_string(options.groups());
  if (!has_bias) s += ", bias=False";
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode())) {
    std::string mode = enumtype::get_enum_name(options.padding_mode()).substr(1);  // kReflect
    mode[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(mode[0])));
    s += ", padding_mode=" + mode;
  }
  return s;
}

}  // namespace ember::nn::detail
