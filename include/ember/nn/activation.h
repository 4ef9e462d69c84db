// Activation layers: ReLU and GELU with their options, Softmax, Softmin and LogSoftmax over a
// dim, and those that take no options (Sigmoid, Tanh, SiLU, Mish, LogSigmoid). None has
// parameters, so reset() has nothing to build.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "ember/nn/functional/activation.h"
#include "ember/nn/module.h"
#include "ember/nn/options/activation.h"

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

// The activations over one dim, one row each: X(Module, F:: function). Each has LibTorch's
// <Module>Options(dim) and prints as torch::nn::Softmax(dim=1).
// clang-format off
#define EMBER_DIM_ACTIVATIONS(X) \
  X(Softmax,    softmax)         \
  X(Softmin,    softmin)         \
  X(LogSoftmax, log_softmax)
// clang-format on

#define EMBER_DECLARE_DIM_ACTIVATION(Name, function)                                            \
  class EMBER_API Name##Impl : public Cloneable<Name##Impl> {                                   \
   public:                                                                                      \
    explicit Name##Impl(int64_t dim) : Name##Impl(Name##Options(dim)) {}                        \
    explicit Name##Impl(const Name##Options& options_) : Cloneable(#Name), options(options_) {} \
    void reset() override {}                                                                    \
    Tensor forward(const Tensor& input) {                                                       \
      return functional::function(input, functional::Name##FuncOptions(options.dim()));         \
    }                                                                                           \
    void pretty_print(std::ostream& stream) const override {                                    \
      stream << "torch::nn::" #Name "(dim=" << options.dim() << ")";                            \
    }                                                                                           \
    std::string extra_repr() const override { return "dim=" + std::to_string(options.dim()); }  \
    Name##Options options;                                                                      \
  };                                                                                            \
  EMBER_MODULE(Name);
EMBER_DIM_ACTIVATIONS(EMBER_DECLARE_DIM_ACTIVATION)
#undef EMBER_DECLARE_DIM_ACTIVATION

// The activations without options, one row each: X(Module, F:: function).
// clang-format off
#define EMBER_PLAIN_ACTIVATIONS(X) \
  X(Sigmoid,    sigmoid)           \
  X(Tanh,       tanh)              \
  X(SiLU,       silu)              \
  X(Mish,       mish)              \
  X(LogSigmoid, logsigmoid)
// clang-format on

#define EMBER_DECLARE_PLAIN_ACTIVATION(Name, function)                                             \
  class EMBER_API Name##Impl : public Cloneable<Name##Impl> {                                      \
   public:                                                                                         \
    Name##Impl() : Cloneable(#Name) {}                                                             \
    void reset() override {}                                                                       \
    Tensor forward(const Tensor& input) { return functional::function(input); }                    \
    void pretty_print(std::ostream& stream) const override { stream << "torch::nn::" #Name "()"; } \
  };                                                                                               \
  EMBER_MODULE(Name);
EMBER_PLAIN_ACTIVATIONS(EMBER_DECLARE_PLAIN_ACTIVATION)
#undef EMBER_DECLARE_PLAIN_ACTIVATION

}  // namespace ember::nn
