// Options of TransformerEncoder and TransformerDecoder, as LibTorch's
// torch/nn/options/transformercoder.h: the layer to stack (each copy a clone of it), how many,
// and an optional final norm (any module, as an AnyModule, cloned too).
#pragma once

#include <cstdint>
#include <utility>

#include "ember/arg.h"
#include "ember/nn/any_module.h"
#include "ember/nn/transformerlayer.h"

namespace ember::nn {

struct TransformerEncoderOptions {
  TransformerEncoderOptions(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : encoder_layer_(std::move(encoder_layer)), num_layers_(num_layers) {}
  // A new layer built from these options.
  TransformerEncoderOptions(const TransformerEncoderLayerOptions& encoder_layer_options,
                            int64_t num_layers)
      : TransformerEncoderOptions(TransformerEncoderLayer(encoder_layer_options), num_layers) {}
  EMBER_ARG(TransformerEncoderLayer, encoder_layer) = nullptr;
  EMBER_ARG(int64_t, num_layers);
  EMBER_ARG(AnyModule, norm);
};

struct TransformerDecoderOptions {
  TransformerDecoderOptions(TransformerDecoderLayer decoder_layer, int64_t num_layers)
      : decoder_layer_(std::move(decoder_layer)), num_layers_(num_layers) {}
  TransformerDecoderOptions(const TransformerDecoderLayerOptions& decoder_layer_options,
                            int64_t num_layers)
      : TransformerDecoderOptions(TransformerDecoderLayer(decoder_layer_options), num_layers) {}
  EMBER_ARG(TransformerDecoderLayer, decoder_layer) = nullptr;
  EMBER_ARG(int64_t, num_layers);
  EMBER_ARG(AnyModule, norm);
};

}  // namespace ember::nn
