// F::relu, F::gelu, F::softmax, F::softmin, F::log_softmax with LibTorch's options, and the
// activations that take none (sigmoid, tanh, silu, mish, logsigmoid).
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/activation.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/tensor.h"

namespace ember::nn::functional {

using ember::log_softmax;  // (input, dim, dtype), besides the options forms below
using ember::mish;
using ember::sigmoid;
using ember::silu;
using ember::softmax;
using ember::tanh;

inline Tensor relu(Tensor input, const ReLUFuncOptions& options = {}) {
  return options.inplace() ? input.relu_() : ember::relu(input);
}

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
