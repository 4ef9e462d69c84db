// F::embedding and F::embedding_bag with LibTorch's options, and F::one_hot.
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/embedding.h"
#include "ember/shape_ops.h"

namespace ember::nn::functional {

using ember::one_hot;

// Rows of weight picked by input's indices. With max_norm the picked rows of weight are first
// renormalised in place (embedding_renorm_, without gradient); scale_grad_by_freq divides each
// row's gradient by how often its index occurs in input. sparse is refused.
EMBER_API Tensor embedding(const Tensor& input, const Tensor& weight,
                           const EmbeddingFuncOptions& options = {});

// The sum, mean or max of each bag of rows of weight: [bags, embedding_dim]. A 2-D input [B, L]
// is B bags of L indices (offsets must be undefined); a 1-D input needs offsets, where each bag
// starts (offsets[0] == 0, non-decreasing; with include_last_offset one more entry, where the last
// bag ends). Empty bags give zeros; entries equal to padding_idx are skipped, also in a mean's
// count. per_sample_weights (input's shape, weight's dtype) scales each row, mode kSum only.
// max_norm and scale_grad_by_freq act as in embedding (not with kMax); sparse is refused.
EMBER_API Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                               const EmbeddingBagFuncOptions& options = {});

}  // namespace ember::nn::functional

namespace ember::nn::detail {
// from_pretrained's check: embeddings must be a 2-D [num_embeddings, embedding_dim] tensor.
EMBER_API void check_pretrained_embeddings(const char* op, const Tensor& embeddings);
}  // namespace ember::nn::detail
