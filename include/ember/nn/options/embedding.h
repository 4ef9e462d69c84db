// Options of Embedding and F::embedding, as LibTorch's torch/nn/options/embedding.h.
#pragma once

#include <cstdint>
#include <optional>

#include "ember/arg.h"
#include "ember/tensor.h"

namespace ember::nn {

// max_norm, scale_grad_by_freq and sparse are LibTorch's settings that ember refuses when set
// (README, "Coming from LibTorch").
struct EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  EMBER_ARG(int64_t, num_embeddings);
  EMBER_ARG(int64_t, embedding_dim);
  EMBER_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  EMBER_ARG(std::optional<double>, max_norm) = std::nullopt;
  EMBER_ARG(double, norm_type) = 2.;
  EMBER_ARG(bool, scale_grad_by_freq) = false;
  EMBER_ARG(bool, sparse) = false;
  EMBER_ARG(Tensor, _weight) = Tensor();  // the initial weight, instead of N(0, 1)
};

namespace functional {
struct EmbeddingFuncOptions {
  EMBER_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  EMBER_ARG(std::optional<double>, max_norm) = std::nullopt;
  EMBER_ARG(double, norm_type) = 2.;
  EMBER_ARG(bool, scale_grad_by_freq) = false;
  EMBER_ARG(bool, sparse) = false;
};
}  // namespace functional

}  // namespace ember::nn
