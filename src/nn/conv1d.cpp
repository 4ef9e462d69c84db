// Conv1d: construction, PyTorch's initialisation and printed settings.
#include "ember/nn/conv.h"

#include <cmath>
#include <tuple>
#include <utility>
#include <variant>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn/functional/conv.h"
#include "ember/nn/init.h"
#include "nn/conv_common.h"
#include "ops/pool_windows.h"

namespace ember::nn {

Conv1dImpl::Conv1dImpl(Conv1dOptions options_) : Cloneable("Conv1d"), options(std::move(options_)) {
  reset();
}

void Conv1dImpl::reset() {
  ops::window_arg("Conv1d", "kernel_size", options.kernel_size(), 1, 1);
  ops::window_arg("Conv1d", "stride", options.stride(), 1, 1);
  detail::conv_pad_widths("Conv1d", options);  // checks the padding
  ops::window_arg("Conv1d", "dilation", options.dilation(), 1, 1);
  const int64_t in = options.in_channels(), out = options.out_channels(), g = options.groups();
  EMBER_CHECK_T(ValueError, g > 0 && in % g == 0 && out % g == 0, "[Conv1d] in_channels (", in,
                ") and out_channels (", out, ") must both be divisible by groups (", g, ")");
  weight = register_parameter("weight", empty({out, in / g, (*options.kernel_size())[0]}));
  if (options.bias()) bias = register_parameter("bias", empty({out}));
  reset_parameters();
}

void Conv1dImpl::reset_parameters() { detail::conv_reset_parameters(weight, bias); }

Tensor Conv1dImpl::forward(const Tensor& input) {
  // As LibTorch's ConvNdImpl: a non-zeros padding_mode pads with F::pad, then convolves unpadded.
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode())) {
    return functional::conv1d(detail::pad_for_conv(input, options.padding_mode(),
                                                   detail::conv_pad_widths("Conv1d", options)),
                              weight,
                              functional::Conv1dFuncOptions()
                                  .bias(bias)
                                  .stride(options.stride())
                                  .padding(0)
                                  .dilation(options.dilation())
                                  .groups(options.groups()));
  }
  return functional::conv1d(input, weight,
                            functional::Conv1dFuncOptions()
                                .bias(bias)
                                .stride(options.stride())
                                .padding(options.padding())
                                .dilation(options.dilation())
                                .groups(options.groups()));
}

std::string Conv1dImpl::extra_repr() const {
  return detail::conv_extra_repr<1>(options, bias.defined());
}

void Conv1dImpl::pretty_print(std::ostream& stream) const {
  detail::conv_pretty_print<1>(stream, "Conv1d", options);
}

}  // namespace ember::nn
