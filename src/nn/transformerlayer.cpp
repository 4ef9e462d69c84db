// TransformerEncoderLayer and TransformerDecoderLayer: their submodules, in PyTorch's order,
// forward (post-norm, as LibTorch 1.13) and printing.
#include "ember/nn/transformerlayer.h"

#include <ostream>
#include <variant>

#include "ember/nn/functional/activation.h"
#include "ember/nn/init.h"

namespace ember::nn {
namespace {

Tensor apply_activation(const activation_t& activation, const Tensor& input) {
  struct Apply {
    const Tensor& input;
    Tensor operator()(enumtype::kReLU) const { return functional::relu(input); }
    Tensor operator()(enumtype::kGELU) const { return functional::gelu(input); }
    Tensor operator()(const std::function<Tensor(const Tensor&)>& f) const { return f(input); }
  };
  return std::visit(Apply{input}, activation);
}

MultiheadAttention attention_of(const TransformerEncoderLayerOptions& options) {
  return MultiheadAttention(
      MultiheadAttentionOptions(options.d_model(), options.nhead()).dropout(options.dropout()));
}

LayerNorm layer_norm_of(const TransformerEncoderLayerOptions& options) {
  return LayerNorm(LayerNormOptions({options.d_model()}));
}

// LayerNorm's own initialisation (weight 1, bias 0), which ember's LayerNorm does in reset().
void reset_layer_norm(const LayerNorm& norm) {
  init::ones_(norm->weight);
  init::zeros_(norm->bias);
}

}  // namespace

// ---- TransformerEncoderLayer
TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(
    const TransformerEncoderLayerOptions& options_)
    : Cloneable("TransformerEncoderLayer"), options(options_) {
  reset();
}

void TransformerEncoderLayerImpl::reset() {
  self_attn = register_module("self_attn", attention_of(options));
  linear1 = register_module("linear1", Linear(options.d_model(), options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), options.d_model()));
  norm1 = register_module("norm1", layer_norm_of(options));
  norm2 = register_module("norm2", layer_norm_of(options));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
}

void TransformerEncoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  reset_layer_norm(norm1);
  reset_layer_norm(norm2);
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& src, const Tensor& src_mask,
                                            const Tensor& src_key_padding_mask) {
  const Tensor attended =
      std::get<0>(self_attn(src, src, src, src_key_padding_mask, /*need_weights=*/false, src_mask));
  const Tensor x = norm1(src + dropout1(attended));
  const Tensor fed = linear2(dropout(apply_activation(options.activation(), linear1(x))));
  return norm2(x + dropout2(fed));
}

void TransformerEncoderLayerImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TransformerEncoderLayerImpl";
}

// ---- TransformerDecoderLayer
TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(
    const TransformerDecoderLayerOptions& options_)
    : Cloneable("TransformerDecoderLayer"), options(options_) {
  reset();
}

void TransformerDecoderLayerImpl::reset() {
  self_attn = register_module("self_attn", attention_of(options));
  multihead_attn = register_module("multihead_attn", attention_of(options));
  linear1 = register_module("linear1", Linear(options.d_model(), options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), options.d_model()));
  norm1 = register_module("norm1", layer_norm_of(options));
  norm2 = register_module("norm2", layer_norm_of(options));
  norm3 = register_module("norm3", layer_norm_of(options));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
  dropout3 = register_module("dropout3", Dropout(options.dropout()));
}

void TransformerDecoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  multihead_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  for (const LayerNorm& norm : {norm1, norm2, norm3}) reset_layer_norm(norm);
}

Tensor TransformerDecoderLayerImpl::forward(Tensor tgt, const Tensor& memory,
                                            const Tensor& tgt_mask, const Tensor& memory_mask,
                                            const Tensor& tgt_key_padding_mask,
                                            const Tensor& memory_key_padding_mask) {
  const Tensor attended =
      std::get<0>(self_attn(tgt, tgt, tgt, tgt_key_padding_mask, /*need_weights=*/false, tgt_mask));
  tgt = norm1(tgt + dropout1(attended));
  const Tensor remembered = std::get<0>(multihead_attn(tgt, memory, memory, memory_key_padding_mask,
                                                       /*need_weights=*/false, memory_mask));
  tgt = norm2(tgt + dropout2(remembered));
  const Tensor fed = linear2(dropout(apply_activation(options.activation(), linear1(tgt))));
  return norm3(tgt + dropout3(fed));
}

void TransformerDecoderLayerImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TransformerDecoderLayerImpl";
}

}  // namespace ember::nn
