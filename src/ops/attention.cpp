// scaled_dot_product_attention, composed from matmul, softmax and dropout (so it runs on every
// device and differentiates through them), and the helpers multi_head_attention_forward shares.
#include "ops/attention.h"

#include <cmath>
#include <limits>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/nn/functional/attention.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember {
namespace detail {

Tensor attention_bias(const Tensor& blocked, ScalarType dtype) {
  return zeros(blocked.sizes(), TensorOptions(dtype).device(blocked.device()))
      .masked_fill(blocked, -std::numeric_limits<double>::infinity());
}

Tensor attention_weights(const Tensor& query, const Tensor& key, const Tensor& bias, double scale,
                         double dropout_p, bool training) {
  Tensor scores = matmul(query * scale, key.transpose(-2, -1));
  if (bias.defined()) scores = scores + bias;
  return dropout(softmax(scores, -1), dropout_p, training);
}

}  // namespace detail

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale) {
  EMBER_CHECK_T(ValueError, query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2,
                "[scaled_dot_product_attention] query, key and value must have at least 2 "
                "dimensions, got shapes ",
                query.sizes(), ", ", key.sizes(), " and ", value.sizes());
  EMBER_CHECK_T(ValueError, query.size(-1) == key.size(-1),
                "[scaled_dot_product_attention] query and key must have the same last dimension, "
                "got ",
                query.size(-1), " and ", key.size(-1));
  EMBER_CHECK_T(ValueError, dropout_p >= 0.0 && dropout_p <= 1.0,
                "[scaled_dot_product_attention] dropout_p must be between 0 and 1, got ",
                dropout_p);
  const ScalarType dtype = query.scalar_type();
  Tensor bias;
  if (is_causal) {
    EMBER_CHECK_T(ValueError, !attn_mask.defined(),
                  "[scaled_dot_product_attention] Explicit attn_mask should not be set when "
                  "is_causal=True");
    // Note [Causal attention]: query i sees keys 0..i, counted from the first of each (PyTorch
    // 2.x's tril(ones(L, S)), also where L != S).
    const TensorOptions bools = TensorOptions(kBool).device(query.device());
    bias = detail::attention_bias(ones({query.size(-2), key.size(-2)}, bools).triu(1), dtype);
  } else if (attn_mask.defined()) {
    bias = attn_mask.scalar_type() == kBool ? detail::attention_bias(attn_mask.logical_not(), dtype)
                                            : attn_mask;
  }
  const double factor = scale.value_or(1.0 / std::sqrt(static_cast<double>(query.size(-1))));
  return matmul(detail::attention_weights(query, key, bias, factor, dropout_p, /*training=*/true),
                value);
}

}  // namespace ember
