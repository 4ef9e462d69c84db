// nn::MultiheadAttention, as LibTorch's (torch/nn/modules/activation.h), with PyTorch's parameter
// names, so that state dicts saved by Python load: in_proj_weight [3 E, E] (or q_proj_weight,
// k_proj_weight, v_proj_weight when kdim or vdim differ from E), in_proj_bias [3 E], bias_k and
// bias_v [1, 1, E] with add_bias_kv, and out_proj (a Linear).
#pragma once

#include <cstdint>
#include <ostream>
#include <tuple>

#include "ember/nn/any_module.h"
#include "ember/nn/functional/attention.h"
#include "ember/nn/linear.h"
#include "ember/nn/module.h"
#include "ember/nn/options/attention.h"

namespace ember::nn {

class EMBER_API MultiheadAttentionImpl : public Cloneable<MultiheadAttentionImpl> {
 public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions& options_);

  // query [L, N, E], key [S, N, kdim], value [S, N, vdim] (or all unbatched): the output
  // [L, N, E] and the attention weights [N, L, S] (per head [N, heads, L, S] without
  // average_attn_weights; undefined without need_weights). Masks as
  // F::multi_head_attention_forward.
  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {},
                                     bool average_attn_weights = true);

  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  // Xavier-uniform projections, zero biases, Xavier-normal bias_k and bias_v, as PyTorch.
  void _reset_parameters();

  MultiheadAttentionOptions options;
  bool _qkv_same_embed_dim = true;
  Tensor in_proj_weight;
  Tensor in_proj_bias;
  Tensor bias_k;
  Tensor bias_v;
  Linear out_proj = nullptr;
  Tensor q_proj_weight;
  Tensor k_proj_weight;
  Tensor v_proj_weight;
  int64_t head_dim = 0;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({3, AnyValue(Tensor())}, {4, AnyValue(true)},
                                 {5, AnyValue(Tensor())}, {6, AnyValue(true)})
};
EMBER_MODULE(MultiheadAttention);

}  // namespace ember::nn
