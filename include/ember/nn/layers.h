// Layers over the nn ops (nn_ops.h): Conv2d, BatchNorm1d/2d/3d, LayerNorm, Embedding,
// Dropout (and, through nn/conv.h and nn/pooling.h, Conv1d and the pools), each with PyTorch's
// parameters, buffers and initialisation. Each is Cloneable: its constructor checks nothing itself
// but calls reset(), which checks the options and registers fresh tensors, as LibTorch's layers do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/factory.h"
#include "ember/nn/conv.h"
#include "ember/nn/functional/embedding.h"
#include "ember/nn/init.h"
#include "ember/nn/module.h"
#include "ember/nn/options/batchnorm.h"
#include "ember/nn/options/conv.h"
#include "ember/nn/options/dropout.h"
#include "ember/nn/options/embedding.h"
#include "ember/nn/options/normalization.h"
#include "ember/nn/pooling.h"

namespace ember::nn {

class EMBER_API Conv2dImpl : public Cloneable<Conv2dImpl> {
 public:
  explicit Conv2dImpl(Conv2dOptions options);
  Conv2dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<2> kernel_size,
             ExpandingArray<2> stride = 1, ExpandingArray<2> padding = 0,
             ExpandingArray<2> dilation = 1, int64_t groups = 1, bool bias = true)
      : Conv2dImpl(Conv2dOptions(in_channels, out_channels, kernel_size)
                       .stride(stride)
                       .padding(padding)
                       .dilation(dilation)
                       .groups(groups)
                       .bias(bias)) {}
  void reset() override;
  void reset_parameters();  // kaiming_uniform(a = sqrt 5); bias U(+-1/sqrt(fan_in))
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;

  Conv2dOptions options;
  Tensor weight;  // [out, in / groups, kH, kW]
  Tensor bias;    // [out]
};
EMBER_MODULE(Conv2d);

namespace detail {
// LibTorch's _check_input_dim of the normalisation layers: the layer takes inputs of low to
// high dims.
EMBER_API void check_norm_input_dim(const std::string& layer, const Tensor& input, int64_t low,
                                    int64_t high);
}  // namespace detail

// The state batch and instance normalisation share (LibTorch's NormImplBase; Derived is the
// layer, for cloning): weight = 1 and bias = 0 when options.affine(), the running statistics
// when options.track_running_stats(), as buffers so that they move with .to().
template <class Derived, class Options>
class NormImplBase : public Cloneable<Derived> {
 public:
  void reset() override {
    const int64_t n = options.num_features();
    if (options.affine()) {
      weight = this->register_parameter("weight", ones({n}));
      bias = this->register_parameter("bias", zeros({n}));
    }
    if (options.track_running_stats()) {
      running_mean = this->register_buffer("running_mean", zeros({n}));
      running_var = this->register_buffer("running_var", ones({n}));
      num_batches_tracked = this->register_buffer("num_batches_tracked", zeros({}, kInt64));
    }
  }
  // running_mean = 0, running_var = 1, num_batches_tracked = 0 (when tracked).
  void reset_running_stats() {
    if (!options.track_running_stats()) return;
    running_mean.zero_();
    running_var.fill_(1);
    num_batches_tracked.zero_();
  }
  // reset_running_stats(), and weight = 1, bias = 0 (when affine).
  void reset_parameters() {
    reset_running_stats();
    if (!options.affine()) return;
    init::ones_(weight);
    init::zeros_(bias);
  }
  Options options;
  Tensor weight, bias, running_mean, running_var, num_batches_tracked;

 protected:
  NormImplBase(const char* type_name, Options options_)
      : Cloneable<Derived>(type_name), options(std::move(options_)) {
    reset();
  }
};

// Batch normalisation over dim 1, BatchNorm1d/2d/3d's shared part (the members are
// instantiated for the three in layers.cpp).
template <class Derived>
class EMBER_API BatchNormImplBase : public NormImplBase<Derived, BatchNormOptions> {
 public:
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;

 protected:
  // The layer accepts inputs of expected_dims_low to expected_dims_high dimensions.
  BatchNormImplBase(const char* type_name, int64_t expected_dims_low, int64_t expected_dims_high,
                    BatchNormOptions options)
      : NormImplBase<Derived, BatchNormOptions>(type_name, std::move(options)),
        dims_low_(expected_dims_low),
        dims_high_(expected_dims_high) {}

 private:
  int64_t dims_low_, dims_high_;
};

class EMBER_API BatchNorm1dImpl : public BatchNormImplBase<BatchNorm1dImpl> {
 public:
  explicit BatchNorm1dImpl(BatchNormOptions options)
      : BatchNormImplBase("BatchNorm1d", 2, 3, std::move(options)) {}
};
EMBER_MODULE(BatchNorm1d);

class EMBER_API BatchNorm2dImpl : public BatchNormImplBase<BatchNorm2dImpl> {
 public:
  explicit BatchNorm2dImpl(BatchNormOptions options)
      : BatchNormImplBase("BatchNorm2d", 4, 4, std::move(options)) {}
};
EMBER_MODULE(BatchNorm2d);

class EMBER_API BatchNorm3dImpl : public BatchNormImplBase<BatchNorm3dImpl> {
 public:
  explicit BatchNorm3dImpl(BatchNormOptions options)
      : BatchNormImplBase("BatchNorm3d", 5, 5, std::move(options)) {}
};
EMBER_MODULE(BatchNorm3d);

class EMBER_API LayerNormImpl : public Cloneable<LayerNormImpl> {
 public:
  explicit LayerNormImpl(LayerNormOptions options);
  explicit LayerNormImpl(std::vector<int64_t> normalized_shape)
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  void reset() override;  // weight = 1, bias = 0 when elementwise_affine
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  LayerNormOptions options;
  Tensor weight, bias;
};
EMBER_MODULE(LayerNorm);

class EMBER_API EmbeddingImpl : public Cloneable<EmbeddingImpl> {
 public:
  explicit EmbeddingImpl(EmbeddingOptions options);
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim,
                std::optional<int64_t> padding_idx = std::nullopt)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim).padding_idx(padding_idx)) {}
  // Registers options._weight when given, else a fresh weight and reset_parameters().
  void reset() override;
  void reset_parameters();  // N(0, 1), the padding row zero
  Tensor forward(const Tensor& indices);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  EmbeddingOptions options;  // a negative padding_idx is stored counted from the front
  Tensor weight;             // [num_embeddings, embedding_dim]
};
class Embedding : public ModuleHolder<EmbeddingImpl> {
 public:
  using ModuleHolder<EmbeddingImpl>::ModuleHolder;

  // A layer over `embeddings` [rows, cols] (the same tensor, not a copy); freeze (the default)
  // turns its gradient off.
  static Embedding from_pretrained(const Tensor& embeddings,
                                   const EmbeddingFromPretrainedOptions& options = {}) {
    detail::check_pretrained_embeddings("Embedding::from_pretrained", embeddings);
    Embedding embedding(EmbeddingOptions(embeddings.size(0), embeddings.size(1))
                            ._weight(embeddings)
                            .padding_idx(options.padding_idx())
                            .max_norm(options.max_norm())
                            .norm_type(options.norm_type())
                            .scale_grad_by_freq(options.scale_grad_by_freq())
                            .sparse(options.sparse()));
    embedding->weight.set_requires_grad(!options.freeze());
    return embedding;
  }
};

class EMBER_API DropoutImpl : public Cloneable<DropoutImpl> {
 public:
  explicit DropoutImpl(const DropoutOptions& options = {});
  void reset() override;         // checks p
  Tensor forward(Tensor input);  // identity in eval()
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  DropoutOptions options;
};
EMBER_MODULE(Dropout);

}  // namespace ember::nn
