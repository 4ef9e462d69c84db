// nn::functional: the losses, plus the layer math under the names PyTorch's torch.nn.functional
// uses (F::relu, F::linear, F::cross_entropy, ...). `namespace F = ember::nn::functional;`
#pragma once

#include <cstdint>

#include "ember/linalg.h"
#include "ember/macros.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/tensor.h"

namespace ember::nn {

// How a loss folds its per-element values: PyTorch's reduction='none' | 'mean' | 'sum'.
enum class Reduction { None, Mean, Sum };

namespace functional {

using ember::gelu;
using ember::linear;
using ember::log_softmax;
using ember::relu;
using ember::sigmoid;
using ember::silu;
using ember::softmax;
using ember::tanh;

// mean((input - target)^2), broadcasting target to input.
EMBER_API Tensor mse_loss(const Tensor& input, const Tensor& target,
                          Reduction reduction = Reduction::Mean);

// -input[n, target[n]] (weighted): input holds log-probabilities [N, C] (or [C], or [N, C, ...]),
// target class indices [N] (or [], or [N, ...]); targets equal to ignore_index count for nothing.
// The mean divides by the summed weights of the counted targets, as PyTorch does.
EMBER_API Tensor nll_loss(const Tensor& input, const Tensor& target,
                          const Tensor& weight = Tensor(), int64_t ignore_index = -100,
                          Reduction reduction = Reduction::Mean);

// nll_loss(log_softmax(input, 1), target) for class indices, with optional label smoothing;
// a floating-point target of input's shape is read as class probabilities.
EMBER_API Tensor cross_entropy(const Tensor& input, const Tensor& target,
                               const Tensor& weight = Tensor(), int64_t ignore_index = -100,
                               Reduction reduction = Reduction::Mean, double label_smoothing = 0.0);

// Binary cross entropy on logits, computed stably; pos_weight scales the positive term.
EMBER_API Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                                  const Tensor& weight = Tensor(),
                                                  Reduction reduction = Reduction::Mean,
                                                  const Tensor& pos_weight = Tensor());

}  // namespace functional
}  // namespace ember::nn
