// Activation and reshaping layers without parameters: ReLU, GELU, Sigmoid, Tanh, Flatten.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "ember/nn/module.h"

namespace ember::nn {

class EMBER_API ReLUImpl : public Module {
 public:
  ReLUImpl() : Module("ReLU") {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::ReLU()"; }
};
EMBER_MODULE(ReLU);

class EMBER_API GELUImpl : public Module {
 public:
  GELUImpl() : Module("GELU") {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::GELU()"; }
  std::string extra_repr() const override { return "approximate='none'"; }
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
  explicit FlattenImpl(int64_t start_dim = 1, int64_t end_dim = -1)
      : Module("Flatten"), start_dim(start_dim), end_dim(end_dim) {}
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  int64_t start_dim, end_dim;
};
EMBER_MODULE(Flatten);

}  // namespace ember::nn
