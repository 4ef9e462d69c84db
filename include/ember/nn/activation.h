// Activation layers, as LibTorch's torch/nn/modules/activation.h: those configured by an options
// class (ReLU, LeakyReLU, ELU, ...), GELU, RReLU, Threshold, Hardtanh, Softmax, Softmin and
// LogSoftmax over a dim, those without options (Sigmoid, Tanh, ...), Softmax2d, and PReLU, the one
// with a parameter (its learnable slopes).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "ember/nn/functional/activation.h"
#include "ember/nn/module.h"
#include "ember/nn/options/activation.h"

namespace ember::nn {

// The activations configured by an options class, one row each: X(Module, F:: function, the
// type forward takes). Each has LibTorch's <Module>Options, as a default argument; forward takes
// its input by value where the options may ask for the in-place form.
// clang-format off
#define EMBER_OPTIONS_ACTIVATIONS(X)             \
  X(ReLU,       relu,       Tensor)              \
  X(ReLU6,      relu6,      Tensor)              \
  X(SELU,       selu,       Tensor)              \
  X(LeakyReLU,  leaky_relu, Tensor)              \
  X(ELU,        elu,        Tensor)              \
  X(CELU,       celu,       Tensor)              \
  X(Softplus,   softplus,   const Tensor&)       \
  X(Softshrink, softshrink, const Tensor&)       \
  X(Hardshrink, hardshrink, const Tensor&)       \
  X(GLU,        glu,        const Tensor&)
// clang-format on

#define EMBER_DECLARE_OPTIONS_ACTIVATION(Name, function, Input)                  \
  class EMBER_API Name##Impl : public Cloneable<Name##Impl> {                    \
   public:                                                                       \
    explicit Name##Impl(const Name##Options& options_ = {})                      \
        : Cloneable(#Name), options(options_) {                                  \
      reset();                                                                   \
    }                                                                            \
    void reset() override {}                                                     \
    Tensor forward(Input input) { return functional::function(input, options); } \
    /* LibTorch's printing, e.g. torch::nn::LeakyReLU(negative_slope=0.01) */    \
    void pretty_print(std::ostream& stream) const override;                      \
    Name##Options options;                                                       \
  };                                                                             \
  EMBER_MODULE(Name);
EMBER_OPTIONS_ACTIVATIONS(EMBER_DECLARE_OPTIONS_ACTIVATION)
#undef EMBER_DECLARE_OPTIONS_ACTIVATION

// min(max(x, min_val), max_val); refuses bounds that leave nothing between them.
class EMBER_API HardtanhImpl : public Cloneable<HardtanhImpl> {
 public:
  explicit HardtanhImpl(const HardtanhOptions& options_ = {})
      : Cloneable("Hardtanh"), options(options_) {
    reset();
  }
  void reset() override;
  Tensor forward(Tensor input) { return functional::hardtanh(std::move(input), options); }
  void pretty_print(std::ostream& stream) const override;
  HardtanhOptions options;
};
EMBER_MODULE(Hardtanh);

// The randomized leaky ReLU: in training, slopes drawn from U(lower, upper) for the elements
// <= 0; in eval, leaky_relu with their mean.
class EMBER_API RReLUImpl : public Cloneable<RReLUImpl> {
 public:
  explicit RReLUImpl(const RReLUOptions& options_ = {}) : Cloneable("RReLU"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(Tensor input);
  void pretty_print(std::ostream& stream) const override;
  RReLUOptions options;
};
EMBER_MODULE(RReLU);

// value where x <= threshold, else x.
class EMBER_API ThresholdImpl : public Cloneable<ThresholdImpl> {
 public:
  ThresholdImpl(double threshold, double value)
      : ThresholdImpl(ThresholdOptions(threshold, value)) {}
  explicit ThresholdImpl(const ThresholdOptions& options_)
      : Cloneable("Threshold"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(Tensor input) { return functional::threshold(std::move(input), options); }
  void pretty_print(std::ostream& stream) const override;
  ThresholdOptions options;
};
EMBER_MODULE(Threshold);

// x where positive, else weight * x, with `weight` learnable: one slope, or one per channel
// (num_parameters, dim 1 of the input), each starting at `init`.
class EMBER_API PReLUImpl : public Cloneable<PReLUImpl> {
 public:
  explicit PReLUImpl(const PReLUOptions& options_ = {}) : Cloneable("PReLU"), options(options_) {
    reset();
  }
  void reset() override;
  Tensor forward(const Tensor& input) { return functional::prelu(input, weight); }
  void pretty_print(std::ostream& stream) const override;
  PReLUOptions options;
  Tensor weight;
};
EMBER_MODULE(PReLU);

// Softmax over the channels of [C, H, W] or [N, C, H, W] (dim -3).
class EMBER_API Softmax2dImpl : public Cloneable<Softmax2dImpl> {
 public:
  Softmax2dImpl() : Cloneable("Softmax2d") { reset(); }
  void reset() override {}
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Softmax2d()"; }
};
EMBER_MODULE(Softmax2d);

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
  X(Sigmoid,     sigmoid)          \
  X(Tanh,        tanh)             \
  X(SiLU,        silu)             \
  X(Mish,        mish)             \
  X(LogSigmoid,  logsigmoid)       \
  X(Softsign,    softsign)         \
  X(Tanhshrink,  tanhshrink)       \
  X(Hardsigmoid, hardsigmoid)      \
  X(Hardswish,   hardswish)
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
