// Neural-network ops with PyTorch's semantics (torch.nn.functional): convolution, pooling,
// normalisation, embedding, dropout and the losses (the pools: pool_ops.h). All are
// differentiable.
#pragma once

#include <cstdint>
#include <optional>

#include "ember/array_ref.h"
#include "ember/enum.h"
#include "ember/macros.h"
#include "ember/pool_ops.h"
#include "ember/tensor.h"

namespace ember {

// 2-D convolution (cross-correlation, as PyTorch). input [N, C, H, W] or unbatched [C, H, W];
// weight [O, C / groups, kH, kW]; bias [O] or undefined. stride, padding and dilation take one
// value (both dims) or two (height, width). Float types only.
EMBER_API Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor(),
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);

// 1-D convolution: conv2d over [N, C, 1, L], as ATen's. input [N, C, L] or unbatched [C, L];
// weight [O, C / groups, K]; stride, padding and dilation one value each.
EMBER_API Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor(),
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);

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

// Group normalisation of [N, C, *]: the C channels split into num_groups groups, each (sample,
// group) normalised over its channels and positions (biased variance), then the optional
// per-channel weight and bias ([C]). cudnn_enabled is LibTorch's and changes nothing.
EMBER_API Tensor group_norm(const Tensor& input, int64_t num_groups,
                            const Tensor& weight = Tensor(), const Tensor& bias = Tensor(),
                            double eps = 1e-5, bool cudnn_enabled = true);

// Instance normalisation of [N, C, *]: use_input_stats normalises each (sample, channel) over
// its positions and, when running_mean / running_var ([C]) are defined, moves them by momentum
// towards the mean over the batch of each instance's mean and unbiased variance; otherwise it
// normalises with the running statistics. weight / bias ([C]) may be undefined.
EMBER_API Tensor instance_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                               const Tensor& running_mean, const Tensor& running_var,
                               bool use_input_stats, double momentum, double eps,
                               bool cudnn_enabled);

// sum over dim of x1 / max(||x1||, eps) * x2 / max(||x2||, eps), the inputs broadcast together.
EMBER_API Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1,
                                   double eps = 1e-8);
// ||x1 - x2 + eps||_p over the last dim of the broadcast inputs.
EMBER_API Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2,
                                   double eps = 1e-6, bool keepdim = false);

// [*, C r^2, H, W] -> [*, C, H r, W r]: each group of r^2 channels becomes an r x r block.
EMBER_API Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor);
// The inverse: [*, C, H r, W r] -> [*, C r^2, H, W].
EMBER_API Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor);

// Rows of weight [num_embeddings, D] picked by integer indices of any shape: the result is
// indices.shape + [D]. Rows at padding_idx (negative counts from the end) get no gradient.
EMBER_API Tensor embedding(const Tensor& weight, const Tensor& indices,
                           std::optional<int64_t> padding_idx = std::nullopt);

// Training: zeroes each element with probability p (ember's generator, so manual_seed applies)
// and scales the rest by 1 / (1 - p). Eval or p == 0: returns input itself.
EMBER_API Tensor dropout(const Tensor& input, double p, bool training);
// The same for whole channels: one draw per (sample, channel) of [N, C, *].
EMBER_API Tensor feature_dropout(const Tensor& input, double p, bool train);
// SELU's dropout: dropped elements become SELU's negative saturation -alpha' and the result is
// rescaled so that a zero-mean, unit-variance input keeps its mean and variance.
EMBER_API Tensor alpha_dropout(const Tensor& input, double p, bool train);
// alpha_dropout for whole channels, as feature_dropout.
EMBER_API Tensor feature_alpha_dropout(const Tensor& input, double p, bool train);

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
