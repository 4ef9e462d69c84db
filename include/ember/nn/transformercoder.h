// TransformerEncoder and TransformerDecoder, as LibTorch's torch/nn/modules/transformercoder.h:
// num_layers clones of a layer in a ModuleList "layers", run in turn, then the optional "norm".
#pragma once

#include <cstdint>
#include <ostream>
#include <utility>

#include "ember/nn/any_module.h"
#include "ember/nn/module.h"
#include "ember/nn/module_list.h"
#include "ember/nn/options/transformercoder.h"
#include "ember/nn/transformerlayer.h"

namespace ember::nn {

class EMBER_API TransformerEncoderImpl : public Cloneable<TransformerEncoderImpl> {
 public:
  TransformerEncoderImpl(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : TransformerEncoderImpl(TransformerEncoderOptions(std::move(encoder_layer), num_layers)) {}
  explicit TransformerEncoderImpl(TransformerEncoderOptions options_);
  // Each layer's forward with these masks, in turn.
  Tensor forward(const Tensor& src, const Tensor& src_mask = {},
                 const Tensor& src_key_padding_mask = {});
  void reset() override;
  // Each layer's reset_parameters(), and a fresh clone of options.norm().
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  TransformerEncoderOptions options;
  ModuleList layers = nullptr;
  AnyModule norm;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())}, {2, AnyValue(Tensor())})
};
EMBER_MODULE(TransformerEncoder);

class EMBER_API TransformerDecoderImpl : public Cloneable<TransformerDecoderImpl> {
 public:
  TransformerDecoderImpl(TransformerDecoderLayer decoder_layer, int64_t num_layers)
      : TransformerDecoderImpl(TransformerDecoderOptions(std::move(decoder_layer), num_layers)) {}
  explicit TransformerDecoderImpl(TransformerDecoderOptions options_);
  Tensor forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  TransformerDecoderOptions options;
  ModuleList layers = nullptr;
  AnyModule norm;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(Tensor())}, {3, AnyValue(Tensor())},
                                 {4, AnyValue(Tensor())}, {5, AnyValue(Tensor())})
};
EMBER_MODULE(TransformerDecoder);

}  // namespace ember::nn
