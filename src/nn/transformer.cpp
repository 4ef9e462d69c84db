// nn::Transformer: the standard (or custom) encoder and decoder, their initialisation and the
// causal mask.
#include "ember/nn/transformer.h"

#include <limits>
#include <ostream>
#include <utility>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn/init.h"

namespace ember::nn {
namespace {

TransformerEncoderLayerOptions layer_options(const TransformerOptions& options) {
  return TransformerEncoderLayerOptions(options.d_model(), options.nhead())
      .dim_feedforward(options.dim_feedforward())
      .dropout(options.dropout())
      .activation(options.activation());
}

// A clone of `custom`, or else the standard stack of num_layers layers ending in a LayerNorm.
template <class Stack, class StackOptions>
AnyModule custom_or_standard(const AnyModule& custom, const TransformerOptions& options,
                             int64_t num_layers) {
  if (!custom.is_empty()) return custom.clone();
  AnyModule norm(LayerNorm(LayerNormOptions({options.d_model()})));
  return AnyModule(Stack(StackOptions(layer_options(options), num_layers).norm(norm)));
}

}  // namespace

TransformerImpl::TransformerImpl(TransformerOptions options_)
    : Cloneable("Transformer"), options(std::move(options_)) {
  reset();
}

void TransformerImpl::reset() {
  encoder = custom_or_standard<TransformerEncoder, TransformerEncoderOptions>(
      options.custom_encoder(), options, options.num_encoder_layers());
  register_module("encoder", encoder.ptr());
  decoder = custom_or_standard<TransformerDecoder, TransformerDecoderOptions>(
      options.custom_decoder(), options, options.num_decoder_layers());
  register_module("decoder", decoder.ptr());
  reset_parameters();
}

void TransformerImpl::reset_parameters() {
  for (const Tensor& parameter : parameters())
    if (parameter.dim() > 1) init::xavier_uniform_(parameter);
}

Tensor TransformerImpl::forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask,
                                const Tensor& tgt_mask, const Tensor& memory_mask,
                                const Tensor& src_key_padding_mask,
                                const Tensor& tgt_key_padding_mask,
                                const Tensor& memory_key_padding_mask) {
  EMBER_CHECK_T(ValueError, src.dim() == 3 && tgt.dim() == 3,
                "[Transformer] src and tgt should have 3 dimensions, but got ", src.dim(), " and ",
                tgt.dim());
  EMBER_CHECK_T(ValueError, src.size(1) == tgt.size(1),
                "[Transformer] src and tgt should have equal batch size (at dim 1), but got ",
                src.size(1), " and ", tgt.size(1));
  EMBER_CHECK_T(ValueError, src.size(2) == options.d_model() && tgt.size(2) == options.d_model(),
                "[Transformer] src and tgt should have same feature size as d_model (at dim 2), "
                "but got ",
                src.size(2), " and ", tgt.size(2), " while d_model is ", options.d_model());
  const Tensor memory = encoder.forward(src, src_mask, src_key_padding_mask);
  return decoder.forward(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                         memory_key_padding_mask);
}

void TransformerImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TransformerImpl";
}

Tensor TransformerImpl::generate_square_subsequent_mask(int64_t sz) {
  EMBER_CHECK_T(ValueError, sz >= 0,
                "[Transformer] Input size must be non-negative to generate a valid square "
                "subsequent mask, but got ",
                sz);
  return full({sz, sz}, -std::numeric_limits<float>::infinity()).triu(1);
}

}  // namespace ember::nn
