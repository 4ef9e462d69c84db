// Area 11 (issue 23): attention and the Transformer family as LibTorch 1.13's C++ frontend has
// them: MultiheadAttention (parameter names and shapes with and without kdim/vdim, printing,
// outputs and weights with masks, gradients), F::multi_head_attention_forward, the Transformer
// layers, stacks and Transformer with their defaults, printing and values.
#include <sstream>
#include <string>
#include <tuple>

#include "torch_api.h"

namespace {

namespace F = torch::nn::functional;
namespace nn = torch::nn;

// The i-th parameter (named_parameters() order) becomes 0.3 cos(0.41 k + 0.17 i), in double:
// the same values in both libraries, whatever their generators drew.
void set_parameters(nn::Module& module) {
  torch::NoGradGuard no_grad;
  int64_t i = 0;
  module.to(torch::kDouble);
  for (auto& p : module.parameters())
    p.copy_(torch::arange(p.numel(), torch::kDouble)
                .mul(0.41)
                .add(0.17 * double(i++))
                .cos()
                .mul(0.3)
                .reshape(p.sizes()));
}

std::string parameter_shapes(const nn::Module& module) {
  std::ostringstream os;
  for (const auto& item : module.named_parameters())
    os << item.key() << torch_api::show(item.value().sizes()) << " ";
  return os.str();
}

std::string tree(const nn::Module& module) {
  std::ostringstream os;
  os << module;
  return os.str();
}

torch::Tensor sequence(int64_t length, int64_t batch, int64_t features) {
  return torch::arange(length * batch * features, torch::kDouble)
      .mul(0.29)
      .sin()
      .reshape({length, batch, features});
}

void multihead_attention() {
  nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(4, 2));
  SHOW(parameter_shapes(*mha));
  SHOW(tree(*mha));
  nn::MultiheadAttention separate(
      nn::MultiheadAttentionOptions(4, 2).kdim(3).vdim(3).add_bias_kv(true).bias(false));
  SHOW(parameter_shapes(*separate));
  SHOW(mha->head_dim);
  SHOW(mha->options.dropout());

  set_parameters(*mha);
  torch::Tensor x = sequence(3, 2, 4).requires_grad_();
  torch::Tensor output, weights;  // not a structured binding: SHOW's lambda captures them
  std::tie(output, weights) = mha(x, x, x);
  SHOW(output);
  SHOW(weights);
  (output * sequence(3, 2, 4)).sum().backward();
  SHOW(x.grad());
  SHOW(mha->in_proj_weight.grad());

  torch::Tensor padding = torch::zeros({2, 3}, torch::kBool);
  padding.index_put_({1, 2}, true);
  torch::Tensor causal = nn::TransformerImpl::generate_square_subsequent_mask(3).to(torch::kDouble);
  SHOW(mha(x, x, x, padding, true, causal));
  SHOW(std::get<1>(
           mha(x, x, x, torch::Tensor(), true, torch::Tensor(), /*average_attn_weights=*/false))
           .sizes());
  SHOW(std::get<1>(mha(x, x, x, torch::Tensor(), /*need_weights=*/false)).defined());

  set_parameters(*separate);
  // LibTorch 1.13 asserts that key and value have one shape, so vdim = kdim here.
  torch::Tensor memory = sequence(5, 2, 3);
  SHOW(separate(x, memory, memory));

  auto forward_options = F::MultiheadAttentionForwardFuncOptions(
                             4, 2, mha->in_proj_weight, mha->in_proj_bias, {}, {}, false, 0.0,
                             mha->out_proj->weight, mha->out_proj->bias)
                             .need_weights(false);
  SHOW(std::get<0>(F::multi_head_attention_forward(x, x, x, forward_options)));
}

void transformer_layers() {
  nn::TransformerEncoderLayer encoder_layer(
      nn::TransformerEncoderLayerOptions(4, 2).dim_feedforward(6).dropout(0.0));
  SHOW(parameter_shapes(*encoder_layer));
  SHOW(tree(*encoder_layer));
  SHOW(encoder_layer->options.dim_feedforward());
  SHOW(nn::TransformerEncoderLayerOptions(4, 2).dim_feedforward());
  SHOW(nn::TransformerEncoderLayerOptions(4, 2).dropout());
  set_parameters(*encoder_layer);
  torch::Tensor src = sequence(3, 2, 4);
  torch::Tensor causal = nn::TransformerImpl::generate_square_subsequent_mask(3).to(torch::kDouble);
  SHOW(encoder_layer(src, causal));

  nn::TransformerDecoderLayer decoder_layer(
      nn::TransformerDecoderLayerOptions(4, 2).dim_feedforward(6).dropout(0.0).activation(
          torch::kGELU));
  SHOW(parameter_shapes(*decoder_layer));
  set_parameters(*decoder_layer);
  SHOW(decoder_layer(src, sequence(5, 2, 4), causal));

  nn::TransformerEncoder encoder(
      nn::TransformerEncoderOptions(encoder_layer, 2)
          .norm(nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({4})))));
  SHOW(encoder->layers->size());
  SHOW(parameter_shapes(*encoder));
  set_parameters(*encoder);
  SHOW(encoder(src));

  nn::Transformer transformer(nn::TransformerOptions(4, 2, 1, 1).dim_feedforward(6).dropout(0.0));
  SHOW(transformer->parameters().size());
  set_parameters(*transformer);
  SHOW(transformer(sequence(5, 2, 4), src, torch::Tensor(), causal));
  SHOW(nn::TransformerImpl::generate_square_subsequent_mask(3));
  SHOW(nn::TransformerOptions().d_model());
  SHOW(nn::TransformerOptions().nhead());
  SHOW_THROWS("src and tgt should have equal batch size",
              transformer(sequence(5, 2, 4), sequence(3, 1, 4)));
}

}  // namespace

void nn_attention() {
  torch_api::section("nn_attention: multi-head attention");
  multihead_attention();
  torch_api::section("nn_attention: transformer layers");
  transformer_layers();
}
