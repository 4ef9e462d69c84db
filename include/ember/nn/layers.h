// Layers over the nn ops (nn_ops.h): Conv2d, MaxPool2d, BatchNorm1d/2d, LayerNorm, Embedding,
// Dropout, each with PyTorch's parameters, buffers and initialisation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn/module.h"
#include "ember/nn/options.h"

namespace ember::nn {

class EMBER_API Conv2dImpl : public Module {
 public:
  Conv2dImpl(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size,
             IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
             int64_t groups = 1, bool bias = true);
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  void reset_parameters();  // kaiming_uniform(a = sqrt 5); bias U(+-1/sqrt(fan_in))

  int64_t in_channels, out_channels, groups;
  std::vector<int64_t> kernel_size, stride, padding, dilation;
  Tensor weight;  // [out, in / groups, kH, kW]
  Tensor bias;    // [out]
};
EMBER_MODULE(Conv2d);

class EMBER_API MaxPool2dImpl : public Module {
 public:
  explicit MaxPool2dImpl(IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                         IntArrayRef dilation = 1, bool ceil_mode = false);
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  std::vector<int64_t> kernel_size, stride, padding, dilation;
  bool ceil_mode;
};
EMBER_MODULE(MaxPool2d);

// Batch normalisation over dim 1; running statistics are buffers (they move with .to()).
class EMBER_API BatchNormImpl : public Module {
 public:
  BatchNormImpl(const char* type_name, int64_t expected_dims_low, int64_t expected_dims_high,
                int64_t num_features, double eps, double momentum, bool affine,
                bool track_running_stats);
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  int64_t num_features;
  double eps, momentum;
  Tensor weight, bias, running_mean, running_var, num_batches_tracked;

 private:
  int64_t dims_low_, dims_high_;
};

class EMBER_API BatchNorm1dImpl : public BatchNormImpl {
 public:
  explicit BatchNorm1dImpl(int64_t num_features, double eps = 1e-5, double momentum = 0.1,
                           bool affine = true, bool track_running_stats = true)
      : BatchNormImpl("BatchNorm1d", 2, 3, num_features, eps, momentum, affine,
                      track_running_stats) {}
};
EMBER_MODULE(BatchNorm1d);

class EMBER_API BatchNorm2dImpl : public BatchNormImpl {
 public:
  explicit BatchNorm2dImpl(int64_t num_features, double eps = 1e-5, double momentum = 0.1,
                           bool affine = true, bool track_running_stats = true)
      : BatchNormImpl("BatchNorm2d", 4, 4, num_features, eps, momentum, affine,
                      track_running_stats) {}
};
EMBER_MODULE(BatchNorm2d);

class EMBER_API LayerNormImpl : public Module {
 public:
  explicit LayerNormImpl(LayerNormOptions options);
  explicit LayerNormImpl(std::vector<int64_t> normalized_shape)
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  LayerNormOptions options;
  Tensor weight, bias;
};
EMBER_MODULE(LayerNorm);

class EMBER_API EmbeddingImpl : public Module {
 public:
  explicit EmbeddingImpl(EmbeddingOptions options);
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim,
                std::optional<int64_t> padding_idx = std::nullopt)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim).padding_idx(padding_idx)) {}
  Tensor forward(const Tensor& indices);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  EmbeddingOptions options;  // a negative padding_idx is stored counted from the front
  Tensor weight;             // [num_embeddings, embedding_dim], N(0, 1), the padding row zero
};
EMBER_MODULE(Embedding);

class EMBER_API DropoutImpl : public Module {
 public:
  explicit DropoutImpl(const DropoutOptions& options = {});
  Tensor forward(const Tensor& input);  // identity in eval()
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  DropoutOptions options;
};
EMBER_MODULE(Dropout);

}  // namespace ember::nn
