// The activations' F:: forms with LibTorch's options (F::relu, F::leaky_relu, F::elu, F::softmax,
// ...), and those that take none (sigmoid, tanh, silu, mish, logsigmoid, softsign, tanhshrink).
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/activation.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/tensor.h"

namespace ember::nn::functional {

using ember::hardsigmoid;  // LibTorch 1.13 has these two as torch:: functions only
using ember::hardswish;
using ember::log_softmax;  // (input, dim, dtype), besides the options forms below
using ember::mish;
using ember::sigmoid;
using ember::silu;
using ember::softmax;
using ember::tanh;

inline Tensor relu(Tensor input, const ReLUFuncOptions& options = {}) {
  return options.inplace() ? input.relu_() : ember::relu(input);
}

// The rows with parameters (ops.h), with LibTorch's options; `inplace` calls the name_ form.
inline Tensor relu6(Tensor input, const ReLU6FuncOptions& options = {}) {
  return options.inplace() ? ember::relu6_(input) : ember::relu6(input);
}
inline Tensor selu(Tensor input, const SELUFuncOptions& options = {}) {
  return options.inplace() ? ember::selu_(input) : ember::selu(input);
}
inline Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions& options = {}) {
  return options.inplace() ? ember::leaky_relu_(input, options.negative_slope())
                           : ember::leaky_relu(input, options.negative_slope());
}

// Training: slopes drawn from U(lower, upper) for the elements <= 0; otherwise leaky_relu with
// their mean.
inline Tensor rrelu(Tensor input, const RReLUFuncOptions& options = {}) {
  return options.inplace()
             ? ember::rrelu_(input, options.lower(), options.upper(), options.training())
             : ember::rrelu(input, options.lower(), options.upper(), options.training());
}
inline Tensor elu(Tensor input, const ELUFuncOptions& options = {}) {
  return options.inplace() ? ember::elu_(input, options.alpha())
                           : ember::elu(input, options.alpha());
}
inline Tensor celu(Tensor input, const CELUFuncOptions& options = {}) {
  return options.inplace() ? ember::celu_(input, options.alpha())
                           : ember::celu(input, options.alpha());
}
inline Tensor hardtanh(Tensor input, const HardtanhFuncOptions& options = {}) {
  return options.inplace() ? ember::hardtanh_(input, options.min_val(), options.max_val())
                           : ember::hardtanh(input, options.min_val(), options.max_val());
}
inline Tensor threshold(Tensor input, const ThresholdFuncOptions& options) {
  return options.inplace() ? ember::threshold_(input, options.threshold(), options.value())
                           : ember::threshold(input, options.threshold(), options.value());
}
inline Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options = {}) {
  return ember::softplus(input, options.beta(), options.threshold());
}
inline Tensor softshrink(const Tensor& input, const SoftshrinkFuncOptions& options = {}) {
  return ember::softshrink(input, options.lambda());
}
inline Tensor hardshrink(const Tensor& input, const HardshrinkFuncOptions& options = {}) {
  return ember::hardshrink(input, options.lambda());
}

// Compositions, as LibTorch writes them: x / (|x| + 1) and x - tanh(x).
inline Tensor softsign(const Tensor& input) { return input / (input.abs() + 1); }
inline Tensor tanhshrink(const Tensor& input) { return input - input.tanh(); }

inline Tensor glu(const Tensor& input, const GLUFuncOptions& options = {}) {
  return ember::glu(input, options.dim());
}
using ember::prelu;

// approximate "none" (erf) or "tanh" (0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))).
EMBER_API Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {});

inline Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options) {
  return ember::softmax(input, options.dim(), options.dtype());
}

inline Tensor logsigmoid(const Tensor& input) { return ember::log_sigmoid(input); }
// softmax(-input): largest for the smallest value.
inline Tensor softmin(const Tensor& input, const SoftminFuncOptions& options) {
  return ember::softmax(-input, options.dim(), options.dtype());
}
inline Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options) {
  return ember::log_softmax(input, options.dim(), options.dtype());
}

}  // namespace ember::nn::functional
