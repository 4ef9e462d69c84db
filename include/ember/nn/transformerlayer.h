// TransformerEncoderLayer and TransformerDecoderLayer, as LibTorch 1.13's
// torch/nn/modules/transformerlayer.h: self-attention (and, in the decoder, attention over the
// encoder's memory), then a two-layer feed-forward block, each followed by dropout, a residual
// sum and LayerNorm. Inputs are [S, N, d_model]; the submodules carry PyTorch's names.
#pragma once

#include <cstdint>
#include <ostream>

#include "ember/nn/any_module.h"
#include "ember/nn/attention.h"
#include "ember/nn/layers.h"
#include "ember/nn/linear.h"
#include "ember/nn/module.h"
#include "ember/nn/options/transformerlayer.h"

namespace ember::nn {

class EMBER_API TransformerEncoderLayerImpl : public Cloneable<TransformerEncoderLayerImpl> {
 public:
  TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayerImpl(TransformerEncoderLayerOptions(d_model, nhead)) {}
  explicit TransformerEncoderLayerImpl(const TransformerEncoderLayerOptions& options_);
  // src [S, N, d_model]; src_mask [S, S] and src_key_padding_mask [N, S] as MultiheadAttention's.
  Tensor forward(const Tensor& src, const Tensor& src_mask = {},
                 const Tensor& src_key_padding_mask = {});
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  TransformerEncoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())}, {2, AnyValue(Tensor())})
};
EMBER_MODULE(TransformerEncoderLayer);

class EMBER_API TransformerDecoderLayerImpl : public Cloneable<TransformerDecoderLayerImpl> {
 public:
  TransformerDecoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerDecoderLayerImpl(TransformerDecoderLayerOptions(d_model, nhead)) {}
  explicit TransformerDecoderLayerImpl(const TransformerDecoderLayerOptions& options_);
  // tgt [T, N, d_model] attends to itself (tgt_mask [T, T], tgt_key_padding_mask [N, T]), then
  // to memory [S, N, d_model] (memory_mask [T, S], memory_key_padding_mask [N, S]).
  Tensor forward(Tensor tgt, const Tensor& memory, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  TransformerDecoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  MultiheadAttention multihead_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  LayerNorm norm3 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;
  Dropout dropout3 = nullptr;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(Tensor())}, {3, AnyValue(Tensor())},
                                 {4, AnyValue(Tensor())}, {5, AnyValue(Tensor())})
};
EMBER_MODULE(TransformerDecoderLayer);

}  // namespace ember::nn
