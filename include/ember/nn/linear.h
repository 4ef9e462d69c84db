// nn::Linear (y = x W^T + b, with PyTorch's default initialisation) and the layers LibTorch
// keeps beside it: Identity, Flatten, Unflatten and Bilinear.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <ostream>

#include "ember/nn/module.h"
#include "ember/nn/options/linear.h"

namespace ember::nn {

class EMBER_API LinearImpl : public Cloneable<LinearImpl> {
 public:
  explicit LinearImpl(const LinearOptions& options);
  LinearImpl(int64_t in_features, int64_t out_features, bool bias = true)
      : LinearImpl(LinearOptions(in_features, out_features).bias(bias)) {}
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  // Registers fresh parameters and initialises them (the constructor and clone() call it).
  void reset() override;
  // W from kaiming_uniform(a = sqrt(5)), b from U(-1/sqrt(in), 1/sqrt(in)), as PyTorch.
  void reset_parameters();

  LinearOptions options;
  Tensor weight;  // [out_features, in_features]
  Tensor bias;    // [out_features], undefined without bias
};
EMBER_MODULE(Linear);

// Returns its input: a placeholder where a model takes a layer (LibTorch's takes no options).
class EMBER_API IdentityImpl : public Cloneable<IdentityImpl> {
 public:
  IdentityImpl() : Cloneable("Identity") {}
  void reset() override {}
  Tensor forward(const Tensor& input) { return input; }
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Identity()"; }
};
EMBER_MODULE(Identity);

// Merges dims start_dim..end_dim into one.
class EMBER_API FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {})
      : Cloneable("Flatten"), options(options_) {}
  void reset() override {}
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  FlattenOptions options;
};
EMBER_MODULE(Flatten);

// Splits options.dim() into options.sizes() (one of which may be -1).
class EMBER_API UnflattenImpl : public Cloneable<UnflattenImpl> {
 public:
  UnflattenImpl(int64_t dim, std::vector<int64_t> sizes)
      : UnflattenImpl(UnflattenOptions(dim, std::move(sizes))) {}
  explicit UnflattenImpl(UnflattenOptions options_)
      : Cloneable("Unflatten"), options(std::move(options_)) {}
  void reset() override {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
  UnflattenOptions options;
};
EMBER_MODULE(Unflatten);

// y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o] (torch::bilinear).
class EMBER_API BilinearImpl : public Cloneable<BilinearImpl> {
 public:
  BilinearImpl(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : BilinearImpl(BilinearOptions(in1_features, in2_features, out_features)) {}
  explicit BilinearImpl(const BilinearOptions& options_);
  // Registers fresh parameters and initialises them (the constructor and clone() call it).
  void reset() override;
  // W and b from U(-1/sqrt(in1_features), 1/sqrt(in1_features)), as PyTorch.
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2);

  BilinearOptions options;
  Tensor weight;  // [out_features, in1_features, in2_features]
  Tensor bias;    // [out_features], undefined without bias
};
EMBER_MODULE(Bilinear);

}  // namespace ember::nn
