// Attention as functions: scaled_dot_product_attention (PyTorch 2.x's; LibTorch 1.13 has none),
// also as ember::scaled_dot_product_attention, and F::multi_head_attention_forward, the math of
// nn::MultiheadAttention.
#pragma once

#include <optional>
#include <tuple>

#include "ember/macros.h"
#include "ember/nn/options/attention.h"
#include "ember/tensor.h"

namespace ember {

// softmax(query key^T * scale + bias) value over the last two dims of [..., L, E] queries and
// [..., S, E] keys ([..., S, Ev] values; leading dims broadcast), scale 1 / sqrt(E) unless given.
// attn_mask ([L, S] or broadcasting to [..., L, S]): a bool mask keeps the pairs that are true
// (the others get bias -inf), a floating one is the bias. is_causal keeps key j <= query i and
// refuses an attn_mask. dropout_p > 0 drops attention weights (always: the function has no
// training flag, as PyTorch's).
EMBER_API Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key,
                                              const Tensor& value, const Tensor& attn_mask = {},
                                              double dropout_p = 0.0, bool is_causal = false,
                                              std::optional<double> scale = std::nullopt);

}  // namespace ember

namespace ember::nn::functional {

using ember::scaled_dot_product_attention;

// query [L, N, E] (or unbatched [L, E]), key [S, N, kdim], value [S, N, vdim]: the attention
// output [L, N, E] and, with need_weights, the weights [N, L, S] (averaged over the heads) or
// [N, num_heads, L, S]; the weights are undefined without need_weights. As PyTorch 1.13's
// Python function, whose masks may be bool or floating (LibTorch's take floating attn_mask only).
EMBER_API std::tuple<Tensor, Tensor> multi_head_attention_forward(
    const Tensor& query, const Tensor& key, const Tensor& value,
    const MultiheadAttentionForwardFuncOptions& options);

}  // namespace ember::nn::functional
