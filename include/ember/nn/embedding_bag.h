// EmbeddingBag, as LibTorch's torch/nn/modules/embedding.h (Embedding itself is in layers.h).
#pragma once

#include <cstdint>
#include <ostream>

#include "ember/nn/any_module.h"
#include "ember/nn/functional/embedding.h"
#include "ember/nn/module.h"
#include "ember/nn/options/embedding.h"

namespace ember::nn {

// The sum, mean or max of bags of rows of weight [num_embeddings, embedding_dim]: forward takes a
// 2-D input [B, L] (B bags of L indices) or a 1-D input with offsets, and gives [bags,
// embedding_dim] (F::embedding_bag has the rules).
class EMBER_API EmbeddingBagImpl : public Cloneable<EmbeddingBagImpl> {
 public:
  EmbeddingBagImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingBagImpl(EmbeddingBagOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingBagImpl(EmbeddingBagOptions options);
  // Registers options._weight when given, else a fresh weight and reset_parameters().
  void reset() override;
  void reset_parameters();  // N(0, 1), the padding row zero
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& offsets = {},
                 const Tensor& per_sample_weights = {});
  EmbeddingBagOptions options;  // a negative padding_idx is stored counted from the front
  Tensor weight;                // [num_embeddings, embedding_dim]

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())}, {2, AnyValue(Tensor())})
};

class EmbeddingBag : public ModuleHolder<EmbeddingBagImpl> {
 public:
  using ModuleHolder<EmbeddingBagImpl>::ModuleHolder;

  // A bag layer over `embeddings` [rows, cols] (the same tensor, not a copy); freeze (the
  // default) turns its gradient off.
  static EmbeddingBag from_pretrained(const Tensor& embeddings,
                                      const EmbeddingBagFromPretrainedOptions& options = {}) {
    detail::check_pretrained_embeddings("EmbeddingBag::from_pretrained", embeddings);
    EmbeddingBag bag(EmbeddingBagOptions(embeddings.size(0), embeddings.size(1))
                         ._weight(embeddings)
                         .max_norm(options.max_norm())
                         .norm_type(options.norm_type())
                         .scale_grad_by_freq(options.scale_grad_by_freq())
                         .mode(options.mode())
                         .sparse(options.sparse())
                         .include_last_offset(options.include_last_offset())
                         .padding_idx(options.padding_idx()));
    bag->weight.set_requires_grad(!options.freeze());
    return bag;
  }
};

}  // namespace ember::nn
