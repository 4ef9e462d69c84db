// Options of Embedding and F::embedding, as LibTorch's torch/nn/options/embedding.h.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>

#include "ember/arg.h"
#include "ember/enum.h"
#include "ember/tensor.h"

namespace ember::nn {

// sparse is LibTorch's setting that ember refuses when set (README, "Coming from LibTorch"):
// gradients are always dense. max_norm renormalises the looked-up rows of weight in place
// (embedding_renorm_); scale_grad_by_freq divides each row's gradient by its index's count.
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

// Embedding::from_pretrained's settings: freeze (the default) turns the weight's gradient off.
struct EmbeddingFromPretrainedOptions {
  EMBER_ARG(bool, freeze) = true;
  EMBER_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  EMBER_ARG(std::optional<double>, max_norm) = std::nullopt;
  EMBER_ARG(double, norm_type) = 2.;
  EMBER_ARG(bool, scale_grad_by_freq) = false;
  EMBER_ARG(bool, sparse) = false;
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

// How EmbeddingBag folds the rows of a bag: their sum, mean or elementwise max.
using EmbeddingBagMode = std::variant<enumtype::kSum, enumtype::kMean, enumtype::kMax>;

struct EmbeddingBagOptions {
  EmbeddingBagOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  EMBER_ARG(int64_t, num_embeddings);
  EMBER_ARG(int64_t, embedding_dim);
  EMBER_ARG(std::optional<double>, max_norm) = std::nullopt;
  EMBER_ARG(double, norm_type) = 2.;
  EMBER_ARG(bool, scale_grad_by_freq) = false;
  EMBER_ARG(EmbeddingBagMode, mode) = kMean;
  EMBER_ARG(bool, sparse) = false;
  EMBER_ARG(Tensor, _weight) = Tensor();  // the initial weight, instead of N(0, 1)
  // offsets has one entry more than there are bags: the last is where the last bag ends.
  EMBER_ARG(bool, include_last_offset) = false;
  // Entries equal to padding_idx are left out of their bag (and of a mean's count).
  EMBER_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};

// EmbeddingBag::from_pretrained's settings: freeze (the default) turns the weight's gradient off.
struct EmbeddingBagFromPretrainedOptions {
  EMBER_ARG(bool, freeze) = true;
  EMBER_ARG(std::optional<double>, max_norm) = std::nullopt;
  EMBER_ARG(double, norm_type) = 2.;
  EMBER_ARG(bool, scale_grad_by_freq) = false;
  EMBER_ARG(EmbeddingBagMode, mode) = kMean;
  EMBER_ARG(bool, sparse) = false;
  EMBER_ARG(bool, include_last_offset) = false;
  EMBER_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};

namespace functional {
struct EmbeddingBagFuncOptions {
  EMBER_ARG(Tensor, offsets) = Tensor();
  EMBER_ARG(std::optional<double>, max_norm) = std::nullopt;
  EMBER_ARG(double, norm_type) = 2.;
  EMBER_ARG(bool, scale_grad_by_freq) = false;
  EMBER_ARG(EmbeddingBagMode, mode) = kMean;
  EMBER_ARG(bool, sparse) = false;
  EMBER_ARG(Tensor, per_sample_weights) = Tensor();
  EMBER_ARG(bool, include_last_offset) = false;
  EMBER_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};
}  // namespace functional

}  // namespace ember::nn
