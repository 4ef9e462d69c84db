// F::embedding with LibTorch's options, and F::one_hot.
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/embedding.h"
#include "ember/shape_ops.h"

namespace ember::nn::functional {

using ember::one_hot;

// Rows of weight picked by input's indices. max_norm, scale_grad_by_freq and sparse are refused.
EMBER_API Tensor embedding(const Tensor& input, const Tensor& weight,
                           const EmbeddingFuncOptions& options = {});

}  // namespace ember::nn::functional
