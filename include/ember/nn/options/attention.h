// Options of MultiheadAttention and of F::multi_head_attention_forward, as LibTorch's (which keeps
// them in torch/nn/options/activation.h).
#pragma once

#include <cstdint>
#include <utility>

#include "ember/arg.h"
#include "ember/tensor.h"

namespace ember::nn {

struct MultiheadAttentionOptions {
  // kdim and vdim default to embed_dim: key and value share the query's features.
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim), vdim_(embed_dim) {}
  EMBER_ARG(int64_t, embed_dim);
  EMBER_ARG(int64_t, num_heads);           // embed_dim / num_heads features per head
  EMBER_ARG(double, dropout) = 0.0;        // on the attention weights, while training
  EMBER_ARG(bool, bias) = true;            // in_proj_bias and out_proj.bias
  EMBER_ARG(bool, add_bias_kv) = false;    // learnt bias_k, bias_v appended to key and value
  EMBER_ARG(bool, add_zero_attn) = false;  // a zero key and value appended after the projection
  EMBER_ARG(int64_t, kdim);                // key's features; another than embed_dim makes separate
  EMBER_ARG(int64_t, vdim);  // q/k/v_proj_weight instead of in_proj_weight (so does vdim)
};

namespace functional {

// The projections and settings multi_head_attention_forward takes, besides query, key, value.
struct MultiheadAttentionForwardFuncOptions {
  MultiheadAttentionForwardFuncOptions(int64_t embed_dim_to_check, int64_t num_heads,
                                       Tensor in_proj_weight, Tensor in_proj_bias, Tensor bias_k,
                                       Tensor bias_v, bool add_zero_attn, double dropout_p,
                                       Tensor out_proj_weight, Tensor out_proj_bias)
      : embed_dim_to_check_(embed_dim_to_check),
        num_heads_(num_heads),
        in_proj_weight_(std::move(in_proj_weight)),
        in_proj_bias_(std::move(in_proj_bias)),
        bias_k_(std::move(bias_k)),
        bias_v_(std::move(bias_v)),
        add_zero_attn_(add_zero_attn),
        dropout_p_(dropout_p),
        out_proj_weight_(std::move(out_proj_weight)),
        out_proj_bias_(std::move(out_proj_bias)) {}
  EMBER_ARG(int64_t, embed_dim_to_check);
  EMBER_ARG(int64_t, num_heads);
  EMBER_ARG(Tensor, in_proj_weight);  // [3 E, E]: the q, k and v projections stacked
  EMBER_ARG(Tensor, in_proj_bias);    // [3 E] or undefined
  EMBER_ARG(Tensor, bias_k);          // [1, 1, E] or undefined (then so is bias_v)
  EMBER_ARG(Tensor, bias_v);
  EMBER_ARG(bool, add_zero_attn);
  EMBER_ARG(double, dropout_p);
  EMBER_ARG(Tensor, out_proj_weight);
  EMBER_ARG(Tensor, out_proj_bias);
  EMBER_ARG(bool, training) = true;
  // [N, S]: true (or -inf when floating) for the keys each batch entry must not attend to.
  EMBER_ARG(Tensor, key_padding_mask) = {};
  EMBER_ARG(bool, need_weights) = true;
  // [L, S] or [N * num_heads, L, S]: true marks a forbidden pair; a floating mask is added.
  EMBER_ARG(Tensor, attn_mask) = {};
  EMBER_ARG(bool, use_separate_proj_weight) = false;  // then the three below replace in_proj
  EMBER_ARG(Tensor, q_proj_weight) = {};              // [E, E]
  EMBER_ARG(Tensor, k_proj_weight) = {};              // [E, kdim]
  EMBER_ARG(Tensor, v_proj_weight) = {};              // [E, vdim]
  EMBER_ARG(Tensor, static_k) = {};  // [N * num_heads, S, E / num_heads]: used as projected
  EMBER_ARG(Tensor, static_v) = {};
  EMBER_ARG(bool, average_attn_weights) = true;  // weights averaged over the heads
};

}  // namespace functional
}  // namespace ember::nn
