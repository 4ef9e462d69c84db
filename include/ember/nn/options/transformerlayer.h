// Options of TransformerEncoderLayer and TransformerDecoderLayer, as LibTorch 1.13's
// torch/nn/options/transformerlayer.h (which has no norm_first, batch_first or layer_norm_eps:
// the layers normalise after each block, take [S, N, E] and use LayerNorm's eps 1e-5).
#pragma once

#include <cstdint>
#include <functional>
#include <variant>

#include "ember/arg.h"
#include "ember/enum.h"
#include "ember/tensor.h"

namespace ember::nn {

// The feed-forward block's activation: kReLU, kGELU or any function.
using activation_t =
    std::variant<enumtype::kReLU, enumtype::kGELU, std::function<Tensor(const Tensor&)>>;

struct TransformerEncoderLayerOptions {
  /* implicit */ TransformerEncoderLayerOptions(int64_t d_model, int64_t nhead)  // NOLINT
      : d_model_(d_model), nhead_(nhead) {}
  EMBER_ARG(int64_t, d_model);  // the features of each position
  EMBER_ARG(int64_t, nhead);    // attention heads
  EMBER_ARG(int64_t, dim_feedforward) = 2048;
  EMBER_ARG(double, dropout) = 0.1;
  EMBER_ARG(activation_t, activation) = kReLU;
};

// The decoder layer's settings are the encoder layer's, under LibTorch's name (one type here).
using TransformerDecoderLayerOptions = TransformerEncoderLayerOptions;

}  // namespace ember::nn
