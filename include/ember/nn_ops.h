// Neural-network ops with PyTorch's semantics (torch.nn.functional): convolution, pooling,
// normalisation, embedding, dropout and the losses. All are differentiable.
#pragma once

#include <cstdint>
#include <optional>

#include "ember/array_ref.h"
#include "ember/enum.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember {

// 2-D convolution (cross-correlation, as PyTorch). input [N, C, H, W] or unbatched [C, H, W];
// weight [O, C / groups, kH, kW]; bias [O] or undefined. stride, padding and dilation take one
// value (both dims) or two (height, width). Float types only.
EMBER_API Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor(),
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);

// Max pooling over [N, C, H, W] or [C, H, W]; stride defaults to kernel_size; padding counts as
// -inf. The gradient goes to the (first) maximum of each window.
EMBER_API Tensor max_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
// Average pooling (count_include_pad=True, ceil_mode=False: every window divides by kH * kW).
EMBER_API Tensor avg_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0);

// Normalises over the trailing dims given by normalized_shape (biased variance), then applies
// the optional elementwise affine weight and bias (each of normalized_shape).
EMBER_API Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                            const Tensor& weight = Tensor(), const Tensor& bias = Tensor(),
                            double eps = 1e-5);

// Batch normalisation over dim 1 of [N, C] or [N, C, *]. training: normalises with the batch
// statistics (biased variance) and, when running_mean / running_var are defined, updates them in
// place: running = (1 - momentum) * running + momentum * batch, with the unbiased variance.
// Eval: normalises with the running statistics. weight / bias ([C]) may be undefined.
EMBER_API Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                            Tensor running_mean, Tensor running_var, bool training,
                            double momentum = 0.1, double eps = 1e-5);

// Rows of weight [num_embeddings, D] picked by integer indices of any shape: the result is
// indices.shape + [D]. Rows at padding_idx (negative counts from the end) get no gradient.
EMBER_API Tensor embedding(const Tensor& weight, const Tensor& indices,
                           std::optional<int64_t> padding_idx = std::nullopt);

// Training: zeroes each element with probability p (ember's generator, so manual_seed applies)
// and scales the rest by 1 / (1 - p). Eval or p == 0: returns input itself.
EMBER_API Tensor dropout(const Tensor& input, double p, bool training);

// The gated linear unit: the first half of input along dim times sigmoid of the second half.
EMBER_API Tensor glu(const Tensor& self, int64_t dim = -1);
// x where positive, else weight * x: weight holds one slope, or one per channel (dim 1).
EMBER_API Tensor prelu(const Tensor& self, const Tensor& weight);

// The losses, as ATen's: `reduction` is a Reduction::Reduction (None, Mean or Sum) and the
// nn::functional forms (F::mse_loss, ...) take LibTorch's options instead.
// mean((input - target)^2), broadcasting target to input.
EMBER_API Tensor mse_loss(const Tensor& input, const Tensor& target,
                          int64_t reduction = Reduction::Mean);
// -input[n, target[n]] (weighted): input holds log-probabilities [N, C] (or [C], or [N, C, ...]),
// target class indices [N] (or [], or [N, ...]); targets equal to ignore_index count for nothing.
// The mean divides by the summed weights of the counted targets, as PyTorch does.
EMBER_API Tensor nll_loss(const Tensor& input, const Tensor& target,
                          const Tensor& weight = Tensor(), int64_t reduction = Reduction::Mean,
                          int64_t ignore_index = -100);
// nll_loss(log_softmax(input, 1), target) for class indices, with optional label smoothing;
// a floating-point target of input's shape is read as class probabilities.
EMBER_API Tensor cross_entropy_loss(const Tensor& input, const Tensor& target,
                                    const Tensor& weight = Tensor(),
                                    int64_t reduction = Reduction::Mean,
                                    int64_t ignore_index = -100, double label_smoothing = 0.0);
// Binary cross entropy on logits, computed stably; pos_weight scales the positive term.
EMBER_API Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                                  const Tensor& weight = Tensor(),
                                                  const Tensor& pos_weight = Tensor(),
                                                  int64_t reduction = Reduction::Mean);

}  // namespace ember
