// nn::Transformer, as LibTorch 1.13's torch/nn/modules/transformer.h: a TransformerEncoder and a
// TransformerDecoder (each ending in a LayerNorm), or the custom ones the options give, held as
// AnyModules "encoder" and "decoder".
#pragma once

#include <cstdint>
#include <ostream>

#include "ember/nn/any_module.h"
#include "ember/nn/module.h"
#include "ember/nn/options/transformer.h"
#include "ember/nn/transformercoder.h"

namespace ember::nn {

class EMBER_API TransformerImpl : public Cloneable<TransformerImpl> {
 public:
  explicit TransformerImpl(TransformerOptions options_);
  // src [S, N, d_model] through the encoder, then tgt [T, N, d_model] through the decoder over
  // its output; masks as TransformerEncoder's and TransformerDecoder's.
  Tensor forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask = {},
                 const Tensor& tgt_mask = {}, const Tensor& memory_mask = {},
                 const Tensor& src_key_padding_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});
  void reset() override;
  // Xavier-uniform for every parameter of two or more dims, as PyTorch.
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  // [sz, sz] float: -inf above the diagonal, 0 elsewhere (position i attends to 0..i).
  static Tensor generate_square_subsequent_mask(int64_t sz);

  TransformerOptions options;
  AnyModule encoder;
  AnyModule decoder;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(Tensor())}, {3, AnyValue(Tensor())},
                                 {4, AnyValue(Tensor())}, {5, AnyValue(Tensor())},
                                 {6, AnyValue(Tensor())}, {7, AnyValue(Tensor())})
};
EMBER_MODULE(Transformer);

}  // namespace ember::nn
