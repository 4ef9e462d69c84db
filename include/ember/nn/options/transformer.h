// Options of nn::Transformer, as LibTorch 1.13's torch/nn/options/transformer.h.
#pragma once

#include <cstdint>

#include "ember/arg.h"
#include "ember/nn/any_module.h"
#include "ember/nn/options/transformerlayer.h"

namespace ember::nn {

struct TransformerOptions {
  TransformerOptions() = default;
  TransformerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TransformerOptions(int64_t d_model, int64_t nhead, int64_t num_encoder_layers,
                     int64_t num_decoder_layers)
      : d_model_(d_model),
        nhead_(nhead),
        num_encoder_layers_(num_encoder_layers),
        num_decoder_layers_(num_decoder_layers) {}
  EMBER_ARG(int64_t, d_model) = 512;
  EMBER_ARG(int64_t, nhead) = 8;
  EMBER_ARG(int64_t, num_encoder_layers) = 6;
  EMBER_ARG(int64_t, num_decoder_layers) = 6;
  EMBER_ARG(int64_t, dim_feedforward) = 2048;
  EMBER_ARG(double, dropout) = 0.1;
  EMBER_ARG(activation_t, activation) = kReLU;
  // Used (cloned) instead of the standard encoder / decoder when set: any module whose forward
  // takes the standard one's arguments.
  EMBER_ARG(AnyModule, custom_encoder);
  EMBER_ARG(AnyModule, custom_decoder);
};

}  // namespace ember::nn
