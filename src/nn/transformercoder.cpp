// TransformerEncoder and TransformerDecoder: stacks of cloned layers and an optional final norm.
#include "ember/nn/transformercoder.h"

#include <memory>
#include <ostream>
#include <utility>

namespace ember::nn {
namespace {

// num_layers clones of `layer` (its values, not shared), as LibTorch builds them.
ModuleList clones_of(const Module& layer, int64_t num_layers) {
  ModuleList layers;
  for (int64_t i = 0; i < num_layers; ++i) layers->push_back(layer.clone());
  return layers;
}

// A clone of `prototype` registered as owner's "norm" (nothing for an empty one).
AnyModule register_norm(Module& owner, const AnyModule& prototype) {
  if (prototype.is_empty()) return {};
  AnyModule norm = prototype.clone();
  owner.register_module("norm", norm.ptr());
  return norm;
}

// Fresh parameters for every layer; the norm is replaced by a new clone of `prototype`.
template <class Layer>
void reset_stack(Module& owner, const ModuleList& layers, AnyModule& norm,
                 const AnyModule& prototype) {
  for (size_t i = 0; i < layers->size(); ++i) layers->at<Layer>(i).reset_parameters();
  if (norm.is_empty() || prototype.is_empty()) return;
  norm = prototype.clone();
  owner.replace_module("norm", norm.ptr());
}

}  // namespace

// ---- TransformerEncoder
TransformerEncoderImpl::TransformerEncoderImpl(TransformerEncoderOptions options_)
    : Cloneable("TransformerEncoder"), options(std::move(options_)) {
  reset();
}

void TransformerEncoderImpl::reset() {
  layers = register_module("layers", clones_of(*options.encoder_layer(), options.num_layers()));
  norm = register_norm(*this, options.norm());
}

void TransformerEncoderImpl::reset_parameters() {
  reset_stack<TransformerEncoderLayerImpl>(*this, layers, norm, options.norm());
}

Tensor TransformerEncoderImpl::forward(const Tensor& src, const Tensor& src_mask,
                                       const Tensor& src_key_padding_mask) {
  Tensor output = src;
  for (size_t i = 0; i < layers->size(); ++i)
    output =
        layers->at<TransformerEncoderLayerImpl>(i).forward(output, src_mask, src_key_padding_mask);
  return norm.is_empty() ? output : norm.forward(output);
}

void TransformerEncoderImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TransformerEncoderImpl";
}

// ---- TransformerDecoder
TransformerDecoderImpl::TransformerDecoderImpl(TransformerDecoderOptions options_)
    : Cloneable("TransformerDecoder"), options(std::move(options_)) {
  reset();
}

void TransformerDecoderImpl::reset() {
  layers = register_module("layers", clones_of(*options.decoder_layer(), options.num_layers()));
  norm = register_norm(*this, options.norm());
}

void TransformerDecoderImpl::reset_parameters() {
  reset_stack<TransformerDecoderLayerImpl>(*this, layers, norm, options.norm());
}

Tensor TransformerDecoderImpl::forward(const Tensor& tgt, const Tensor& memory,
                                       const Tensor& tgt_mask, const Tensor& memory_mask,
                                       const Tensor& tgt_key_padding_mask,
                                       const Tensor& memory_key_padding_mask) {
  Tensor output = tgt;
  for (size_t i = 0; i < layers->size(); ++i)
    output = layers->at<TransformerDecoderLayerImpl>(i).forward(
        output, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask);
  return norm.is_empty() ? output : norm.forward(output);
}

void TransformerDecoderImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TransformerDecoderImpl";
}

}  // namespace ember::nn
