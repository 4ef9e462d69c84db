// F::multi_head_attention_forward, as PyTorch 1.13's Python function, and nn::MultiheadAttention.
#include "ember/nn/attention.h"

#include <cmath>
#include <ostream>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/nn/init.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "ops/attention.h"

namespace ember::nn {
namespace functional {
namespace {

struct Projections {
  Tensor q, k, v;
};

// q, k, v through their rows of the stacked in_proj_weight (or the separate weights), with the
// thirds of in_proj_bias.
Projections project_inputs(const Tensor& query, const Tensor& key, const Tensor& value,
                           const MultiheadAttentionForwardFuncOptions& options) {
  std::vector<Tensor> biases(3);
  if (options.in_proj_bias().defined()) biases = options.in_proj_bias().chunk(3);
  if (options.use_separate_proj_weight()) {
    EMBER_CHECK_T(ValueError,
                  options.q_proj_weight().defined() && options.k_proj_weight().defined() &&
                      options.v_proj_weight().defined(),
                  "[multi_head_attention_forward] use_separate_proj_weight is true but "
                  "q_proj_weight, k_proj_weight or v_proj_weight is undefined");
    return {linear(query, options.q_proj_weight(), biases[0]),
            linear(key, options.k_proj_weight(), biases[1]),
            linear(value, options.v_proj_weight(), biases[2])};
  }
  EMBER_CHECK_T(ValueError, options.in_proj_weight().defined(),
                "[multi_head_attention_forward] use_separate_proj_weight is false but "
                "in_proj_weight is undefined");
  const std::vector<Tensor> weights = options.in_proj_weight().chunk(3);
  return {linear(query, weights[0], biases[0]), linear(key, weights[1], biases[1]),
          linear(value, weights[2], biases[2])};
}

// A mask with one more key (a last column that blocks nothing), for an appended key and value.
Tensor with_open_key(const Tensor& mask) {
  if (!mask.defined()) return mask;
  std::vector<int64_t> shape = mask.sizes().vec();
  shape.back() = 1;
  return cat({mask, zeros(shape, mask.options())}, -1);
}

// The attn_mask as a [1, L, S] or [N * heads, L, S] additive bias (bool: true blocks).
Tensor attn_mask_bias(const Tensor& attn_mask, int64_t tgt_len, int64_t src_len,
                      int64_t batch_heads, ScalarType dtype) {
  if (!attn_mask.defined()) return attn_mask;
  Tensor mask = attn_mask.scalar_type() == kByte ? attn_mask.to(kBool) : attn_mask;
  EMBER_CHECK_T(TypeError, mask.is_floating_point() || mask.scalar_type() == kBool,
                "[multi_head_attention_forward] Only float, byte, and bool types are supported "
                "for attn_mask, not ",
                toString(mask.scalar_type()));
  if (mask.dim() == 2) {
    EMBER_CHECK_T(ValueError, mask.size(0) == tgt_len && mask.size(1) == src_len,
                  "[multi_head_attention_forward] The shape of the 2D attn_mask is ", mask.sizes(),
                  ", but should be (", tgt_len, ", ", src_len, ").");
    mask = mask.unsqueeze(0);
  } else {
    EMBER_CHECK_T(ValueError, mask.dim() == 3,
                  "[multi_head_attention_forward] attn_mask's dimension ", mask.dim(),
                  " is not supported");
    EMBER_CHECK_T(ValueError,
                  mask.size(0) == batch_heads && mask.size(1) == tgt_len && mask.size(2) == src_len,
                  "[multi_head_attention_forward] The shape of the 3D attn_mask is ", mask.sizes(),
                  ", but should be (", batch_heads, ", ", tgt_len, ", ", src_len, ").");
  }
  return mask.scalar_type() == kBool ? ember::detail::attention_bias(mask, dtype) : mask;
}

// [N, S] key_padding_mask as a [N * heads, 1, S] additive bias (bool: true blocks).
Tensor key_padding_bias(const Tensor& key_padding_mask, int64_t heads, ScalarType dtype) {
  EMBER_CHECK_T(TypeError,
                key_padding_mask.scalar_type() == kBool || key_padding_mask.is_floating_point(),
                "[multi_head_attention_forward] only bool and floating types of key_padding_mask "
                "are supported");
  const int64_t batch = key_padding_mask.size(0), src_len = key_padding_mask.size(1);
  Tensor mask = key_padding_mask.view({batch, 1, 1, src_len})
                    .expand({batch, heads, 1, src_len})
                    .reshape({batch * heads, 1, src_len});
  return mask.scalar_type() == kBool ? ember::detail::attention_bias(mask, dtype) : mask;
}

// [T, N, E] -> [N * heads, T, E / heads]: each head's slice of the features as its own batch.
Tensor split_heads(const Tensor& x, int64_t batch_heads, int64_t head_dim) {
  return x.contiguous().view({x.size(0), batch_heads, head_dim}).transpose(0, 1);
}

// static_k or static_v ([N * heads, S, head_dim]) when given, else the projection split by head.
Tensor given_or_split(const Tensor& given, const Tensor& projected, int64_t batch_heads,
                      int64_t head_dim, const char* name) {
  if (!given.defined()) return split_heads(projected, batch_heads, head_dim);
  EMBER_CHECK_T(ValueError,
                given.dim() == 3 && given.size(0) == batch_heads && given.size(2) == head_dim,
                "[multi_head_attention_forward] expecting ", name, " of shape (", batch_heads,
                ", S, ", head_dim, "), but got ", given.sizes());
  return given;
}

Tensor sum_biases(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  return b.defined() ? a + b : a;
}

}  // namespace

std::tuple<Tensor, Tensor> multi_head_attention_forward(
    const Tensor& query_in, const Tensor& key_in, const Tensor& value_in,
    const MultiheadAttentionForwardFuncOptions& options) {
  // Note [Unbatched attention]: a 2-D query is one batch entry, as PyTorch 1.13's Python.
  const bool batched = query_in.dim() == 3;
  EMBER_CHECK_T(ValueError,
                (batched || query_in.dim() == 2) && key_in.dim() == query_in.dim() &&
                    value_in.dim() == query_in.dim(),
                "[multi_head_attention_forward] query, key and value must all be 3-D (batched) "
                "or 2-D (unbatched), got shapes ",
                query_in.sizes(), ", ", key_in.sizes(), " and ", value_in.sizes());
  const Tensor query = batched ? query_in : query_in.unsqueeze(1);
  const Tensor key = batched ? key_in : key_in.unsqueeze(1);
  const Tensor value = batched ? value_in : value_in.unsqueeze(1);
  Tensor key_padding_mask = options.key_padding_mask();
  if (key_padding_mask.defined() && !batched) key_padding_mask = key_padding_mask.unsqueeze(0);

  const int64_t tgt_len = query.size(0), batch = query.size(1), embed_dim = query.size(2);
  const int64_t heads = options.num_heads();
  EMBER_CHECK_T(ValueError, embed_dim == options.embed_dim_to_check(),
                "[multi_head_attention_forward] was expecting embedding dimension of ",
                options.embed_dim_to_check(), ", but got ", embed_dim);
  EMBER_CHECK_T(ValueError, heads > 0 && embed_dim % heads == 0,
                "[multi_head_attention_forward] embed_dim ", embed_dim,
                " not divisible by num_heads ", heads);
  EMBER_CHECK_T(ValueError, key.size(0) == value.size(0) && key.size(1) == value.size(1),
                "[multi_head_attention_forward] key's sequence and batch dims ",
                key.sizes().slice(0, 2), " do not match value's ", value.sizes().slice(0, 2));
  const int64_t head_dim = embed_dim / heads, batch_heads = batch * heads;
  const ScalarType dtype = query.scalar_type();

  auto [q, k, v] = project_inputs(query, key, value, options);
  Tensor attn_mask = options.attn_mask();
  const bool bias_kv = options.bias_k().defined();
  EMBER_CHECK_T(ValueError, bias_kv == options.bias_v().defined(),
                "[multi_head_attention_forward] bias_k and bias_v must be given together");
  if (bias_kv) {
    EMBER_CHECK_T(ValueError, !options.static_k().defined() && !options.static_v().defined(),
                  "[multi_head_attention_forward] bias cannot be added to static key or value.");
    k = cat({k, options.bias_k().repeat({1, batch, 1})});
    v = cat({v, options.bias_v().repeat({1, batch, 1})});
    attn_mask = with_open_key(attn_mask);
    key_padding_mask = with_open_key(key_padding_mask);
  }
  q = split_heads(q, batch_heads, head_dim);
  k = given_or_split(options.static_k(), k, batch_heads, head_dim, "static_k");
  v = given_or_split(options.static_v(), v, batch_heads, head_dim, "static_v");
  if (options.add_zero_attn()) {
    k = cat({k, zeros({batch_heads, 1, head_dim}, k.options())}, 1);
    v = cat({v, zeros({batch_heads, 1, head_dim}, v.options())}, 1);
    attn_mask = with_open_key(attn_mask);
    key_padding_mask = with_open_key(key_padding_mask);
  }
  const int64_t src_len = k.size(1);
  Tensor bias = attn_mask_bias(attn_mask, tgt_len, src_len, batch_heads, dtype);
  if (key_padding_mask.defined()) {
    EMBER_CHECK_T(ValueError,
                  key_padding_mask.dim() == 2 && key_padding_mask.size(0) == batch &&
                      key_padding_mask.size(1) == src_len,
                  "[multi_head_attention_forward] expecting key_padding_mask shape of (", batch,
                  ", ", src_len, "), but got ", key_padding_mask.sizes());
    bias = sum_biases(bias, key_padding_bias(key_padding_mask, heads, dtype));
  }

  const Tensor weights =
      ember::detail::attention_weights(q, k, bias, 1.0 / std::sqrt(static_cast<double>(head_dim)),
                                       options.dropout_p(), options.training());
  Tensor output = matmul(weights, v).transpose(0, 1).contiguous().view({tgt_len, batch, embed_dim});
  output = linear(output, options.out_proj_weight(), options.out_proj_bias());
  if (!batched) output = output.squeeze(1);
  if (!options.need_weights()) return {output, Tensor()};
  Tensor head_weights = weights.view({batch, heads, tgt_len, src_len});
  if (options.average_attn_weights()) head_weights = head_weights.sum(1) / heads;
  if (!batched) head_weights = head_weights.squeeze(0);
  return {output, head_weights};
}

}  // namespace functional

MultiheadAttentionImpl::MultiheadAttentionImpl(const MultiheadAttentionOptions& options_)
    : Cloneable("MultiheadAttention"), options(options_) {
  reset();
}

// LibTorch prints its module name alone (then out_proj, indented, as every submodule).
void MultiheadAttentionImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MultiheadAttention";
}

void MultiheadAttentionImpl::reset() {
  const int64_t embed_dim = options.embed_dim();
  _qkv_same_embed_dim = options.kdim() == embed_dim && options.vdim() == embed_dim;
  EMBER_CHECK_T(ValueError, options.num_heads() > 0 && embed_dim % options.num_heads() == 0,
                "[MultiheadAttention] embed_dim must be divisible by num_heads, got ", embed_dim,
                " and ", options.num_heads());
  head_dim = embed_dim / options.num_heads();
  if (_qkv_same_embed_dim) {
    in_proj_weight = register_parameter("in_proj_weight", empty({3 * embed_dim, embed_dim}));
  } else {
    q_proj_weight = register_parameter("q_proj_weight", empty({embed_dim, embed_dim}));
    k_proj_weight = register_parameter("k_proj_weight", empty({embed_dim, options.kdim()}));
    v_proj_weight = register_parameter("v_proj_weight", empty({embed_dim, options.vdim()}));
  }
  if (options.bias()) in_proj_bias = register_parameter("in_proj_bias", empty({3 * embed_dim}));
  out_proj =
      register_module("out_proj", Linear(LinearOptions(embed_dim, embed_dim).bias(options.bias())));
  if (options.add_bias_kv()) {
    bias_k = register_parameter("bias_k", empty({1, 1, embed_dim}));
    bias_v = register_parameter("bias_v", empty({1, 1, embed_dim}));
  }
  _reset_parameters();
}

void MultiheadAttentionImpl::_reset_parameters() {
  for (const Tensor& weight : {in_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight})
    if (weight.defined()) init::xavier_uniform_(weight);
  if (in_proj_bias.defined()) {
    init::constant_(in_proj_bias, 0.0);
    init::constant_(out_proj->bias, 0.0);
  }
  for (const Tensor& bias : {bias_k, bias_v})
    if (bias.defined()) init::xavier_normal_(bias);
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& key_padding_mask,
    bool need_weights, const Tensor& attn_mask, bool average_attn_weights) {
  return functional::multi_head_attention_forward(
      query, key, value,
      functional::MultiheadAttentionForwardFuncOptions(
          options.embed_dim(), options.num_heads(), in_proj_weight, in_proj_bias, bias_k, bias_v,
          options.add_zero_attn(), options.dropout(), out_proj->weight, out_proj->bias)
          .training(is_training())
          .key_padding_mask(key_padding_mask)
          .need_weights(need_weights)
          .attn_mask(attn_mask)
          .use_separate_proj_weight(!_qkv_same_embed_dim)
          .q_proj_weight(q_proj_weight)
          .k_proj_weight(k_proj_weight)
          .v_proj_weight(v_proj_weight)
          .average_attn_weights(average_attn_weights));
}

}  // namespace ember::nn
