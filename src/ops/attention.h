// The core that scaled_dot_product_attention and multi_head_attention_forward share: attention
// weights from queries, keys and an additive bias, and masks turned into such a bias.
#pragma once

#include "ember/dtype.h"
#include "ember/tensor.h"

namespace ember::detail {

// A bias of `dtype`: -inf where `blocked` is true, 0 elsewhere.
Tensor attention_bias(const Tensor& blocked, ScalarType dtype);

// dropout(softmax(query key^T * scale + bias)) over the last dim, for [..., L, E] queries and
// [..., S, E] keys; bias (undefined for none) broadcasts to [..., L, S].
Tensor attention_weights(const Tensor& query, const Tensor& key, const Tensor& bias, double scale,
                         double dropout_p, bool training);

}  // namespace ember::detail
