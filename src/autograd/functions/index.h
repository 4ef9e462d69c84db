// Backward formulas of the indexing ops: index_select (ops/index.cpp), masked_select
// (ops/advanced_index.cpp), gather, scatter, masked_fill and embedding
// (ops/embedding.cpp). Each sends a gradient back to the positions its op read from.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "autograd/record.h"

namespace ember::autograd::functions {

// IndexSelectBackward0: every selected slice adds its gradient back to the slice it came from.
// Saves the flat int64 index.
struct IndexSelectBackward0 {
  static constexpr const char* kName = "IndexSelectBackward0";
  int64_t dim;
  std::vector<int64_t> gathered;  // the gather's result shape: the index's length along dim
  std::vector<int64_t> input;     // the input's shape
  Grads operator()(const Context& c) const;
};

// GatherBackward0: the gradient scatter-added to the positions the index names. Saves the index.
struct GatherBackward0 {
  static constexpr const char* kName = "GatherBackward0";
  int64_t dim;
  std::vector<int64_t> input;  // the input's shape
  Grads operator()(const Context& c) const;
};

// ScatterBackward0 (src a tensor) and ScatterBackward1 (src a number): self's gradient where
// nothing was written, src's gathered from where it was. Saves the index.
struct ScatterBackward {
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// ScatterAddBackward0: self's gradient unchanged, src's gathered from where it was added.
// Saves the index.
struct ScatterAddBackward0 {
  static constexpr const char* kName = "ScatterAddBackward0";
  int64_t dim;
  Grads operator()(const Context& c) const;
};

// MaskedFillBackward0: the gradient where the mask did not fill. Saves the mask.
struct MaskedFillBackward0 {
  static constexpr const char* kName = "MaskedFillBackward0";
  Grads operator()(const Context& c) const;
};

// MaskedSelectBackward0: each selected element's gradient back at its position in the
// broadcast input (the engine sums it over the dims the input was broadcast along). Saves the
// flat positions.
struct MaskedSelectBackward0 {
  static constexpr const char* kName = "MaskedSelectBackward0";
  std::vector<int64_t> broadcast;  // the input's and the mask's broadcast shape
  Grads operator()(const Context& c) const;
};

// EmbeddingBackward0: each gradient row added into the weight row it came from (repeated
// indices accumulate), none into padding_idx. Saves the flat int64 indices.
struct EmbeddingBackward0 {
  static constexpr const char* kName = "EmbeddingBackward0";
  int64_t rows, columns;  // the weight's shape
  std::optional<int64_t> padding_idx;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
