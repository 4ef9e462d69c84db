// Activation and reshaping layers without parameters: ReLU, GELU, Sigmoid, Tanh, Flatten. Their
// reset() has nothing to build.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "ember/nn/module.h"
#include "ember/nn/options/activation.h"
#include "ember/nn/options/linear.h"

namespace ember::nn {

class EMBER_API ReLUImpl : public Cloneable<ReLUImpl> {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {}) : Cloneable("ReLU"), options(options_) {}
  void reset() override {}
  Tensor forward(Tensor input);
  void pretty_print(std::ostream& stream) const override;
  ReLUOptions options;
};
EMBER_MODULE(ReLU);

class EMBER_API GELUImpl : public Cloneable<GELUImpl> {
 public:
  explicit GELUImpl(GELUOptions options_ = {}) : Cloneable("GELU"), options(std::move(options_)) {}
  void reset() override {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::GELU()"; }
  std::string extra_repr() const override { return "approximate='" + options.approximate() + "'"; }
  GELUOptions options;
};
EMBER_MODULE(GELU);

class EMBER_API SigmoidImpl : public Cloneable<SigmoidImpl> {
 public:
  SigmoidImpl() : Cloneable("Sigmoid") {}
  void reset() override {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Sigmoid()"; }
};
EMBER_MODULE(Sigmoid);

class EMBER_API TanhImpl : public Cloneable<TanhImpl> {
 public:
  TanhImpl() : Cloneable("Tanh") {}
  void reset() override {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Tanh()"; }
};
EMBER_MODULE(Tanh);

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

}  // namespace ember::nn
