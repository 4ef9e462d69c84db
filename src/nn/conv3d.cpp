// Conv3d: construction, PyTorch's initialisation and printed settings.
#include <cctype>
#include <cmath>
#include <sstream>
#include <tuple>
#include <utility>
#include <variant>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn/conv.h"
#include "ember/nn/functional/conv.h"
#include "ember/nn/init.h"
#include "nn/conv_common.h"

namespace ember::nn {
namespace {

// Each of the three values at least `min`, checked when the layer is built.
void conv3d_layer_check(const char* name, const ExpandingArray<3>& v, int64_t min) {
  for (int64_t x : *v)
    EMBER_CHECK_T(ValueError, x >= min, "[Conv3d] ", name, " must be ",
                  min == 0 ? "non-negative" : "positive", ", got ", v);
}

}  // namespace

Conv3dImpl::Conv3dImpl(Conv3dOptions options_) : Cloneable("Conv3d"), options(std::move(options_)) {
  reset();
}

void Conv3dImpl::reset() {
  conv3d_layer_check("kernel_size", options.kernel_size(), 1);
  conv3d_layer_check("stride", options.stride(), 1);
  detail::conv_pad_widths("Conv3d", options);  // checks the padding
  conv3d_layer_check("dilation", options.dilation(), 1);
  const int64_t in = options.in_channels(), out = options.out_channels(), g = options.groups();
  EMBER_CHECK_T(ValueError, g > 0 && in % g == 0 && out % g == 0, "[Conv3d] in_channels (", in,
                ") and out_channels (", out, ") must both be divisible by groups (", g, ")");
  const auto& k = *options.kernel_size();
  weight = register_parameter("weight", empty({out, in / g, k[0], k[1], k[2]}));
  if (options.bias()) bias = register_parameter("bias", empty({out}));
  reset_parameters();
}

void Conv3dImpl::reset_parameters() { detail::conv_reset_parameters(weight, bias); }

Tensor Conv3dImpl::forward(const Tensor& input) {
  // As LibTorch's ConvNdImpl: a non-zeros padding_mode pads with F::pad, then convolves unpadded.
  auto conv_options = functional::Conv3dFuncOptions()
                          .bias(bias)
                          .stride(options.stride())
                          .dilation(options.dilation())
                          .groups(options.groups());
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode())) {
    return functional::conv3d(detail::pad_for_conv(input, options.padding_mode(),
                                                   detail::conv_pad_widths("Conv3d", options)),
                              weight, conv_options.padding(0));
  }
  return functional::conv3d(input, weight, conv_options.padding(options.padding()));
}

std::string Conv3dImpl::extra_repr() const {
  return detail::conv_extra_repr<3>(options, bias.defined());
}

void Conv3dImpl::pretty_print(std::ostream& stream) const {
  detail::conv_pretty_print<3>(stream, "Conv3d", options);
}

}  // namespace ember::nn
