// Activation and reshaping layers without parameters: ReLU, GELU, Sigmoid, Tanh, Flatten.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "ember/nn/module.h"
#include "ember/nn/options/activation.h"
#include "ember/nn/options/linear.h"

namespace ember::nn {

class EMBER_API ReLUImpl : public Module {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {}) : Module("ReLU"), options(options_) {}
  Tensor forward(Tensor input);
  void pretty_print(std::ostream& stream) const override;
  ReLUOptions options;
};
EMBER_MODULE(ReLU);

class EMBER_API GELUImpl : public Module {
 public:
  explicit GELUImpl(GELUOptions options_ = {}) : Module("GELU"), options(std::move(options_)) {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::GELU()"; }
  std::string extra_repr() const override { return "approximate='" + options.approximate() + "'"; }
  GELUOptions options;
};
EMBER_MODULE(GELU);

class EMBER_API SigmoidImpl : public Module {
 public:
  SigmoidImpl() : Module("Sigmoid") {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Sigmoid()"; }
};
EMBER_MODULE(Sigmoid);

class EMBER_API TanhImpl : public Module {
 public:
  TanhImpl() : Module("Tanh") {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Tanh()"; }
};
EMBER_MODULE(Tanh);

class EMBER_API FlattenImpl : public Module {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {})
      : Module("Flatten"), options(options_) {}
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  FlattenOptions options;
};
EMBER_MODULE(Flatten);

}  // namespace ember::nn
