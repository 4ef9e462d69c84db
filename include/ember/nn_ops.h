// Neural-network ops with PyTorch's semantics (torch.nn.functional): convolution, pooling,
// normalisation, embedding, dropout and the losses (the pools: pool_ops.h). All are
// differentiable.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

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

// 3-D convolution: for each depth tap, conv2d over the depth positions folded into the batch,
// summed over the taps. input [N, C, D, H, W] or unbatched [C, D, H, W]; weight
// [O, C / groups, kD, kH, kW]; stride, padding and dilation one value or three (depth, height,
// width).
EMBER_API Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor(),
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);

namespace detail {
// A string padding of conv1d/2d/3d: the overloads below take it, an integer never (0 would be
// ambiguous between IntArrayRef and std::string_view).
template <class S>
concept ConvPaddingString =
    std::is_convertible_v<const S&, std::string_view> && !std::is_arithmetic_v<S>;
// conv{dims}d with padding "valid" (none) or "same" (the output as long as the input: dilation *
// (kernel - 1) per dim, the odd element on the right; stride 1 only), as ATen's
// _convolution_mode.
EMBER_API Tensor conv_padding_string(int64_t dims, const Tensor& input, const Tensor& weight,
                                     const Tensor& bias, IntArrayRef stride,
                                     std::string_view padding, IntArrayRef dilation,
                                     int64_t groups);
}  // namespace detail

// at::conv1d/2d/3d's overloads with padding "valid" or "same" (c10::string_view in LibTorch).
template <detail::ConvPaddingString S>
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              const S& padding, IntArrayRef dilation = 1, int64_t groups = 1) {
  return detail::conv_padding_string(1, input, weight, bias, stride, padding, dilation, groups);
}
template <detail::ConvPaddingString S>
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              const S& padding, IntArrayRef dilation = 1, int64_t groups = 1) {
  return detail::conv_padding_string(2, input, weight, bias, stride, padding, dilation, groups);
}
template <detail::ConvPaddingString S>
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              const S& padding, IntArrayRef dilation = 1, int64_t groups = 1) {
  return detail::conv_padding_string(3, input, weight, bias, stride, padding, dilation, groups);
}

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

// Pads (or, for negative entries, crops) the trailing dims with value: pad lists (left, right)
// pairs starting from the last dim, so its length is even and at most 2 * dim().
EMBER_API Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
// Reflect, replicate or circular padding (mode "reflect", "replicate" or "circular") of the
// trailing dims: per padded dim an index tensor and an index_select, so autograd comes for free.
EMBER_API Tensor index_pad_nd(const Tensor& self, IntArrayRef pad, const char* mode);

// Rows of weight [num_embeddings, D] picked by integer indices of any shape: the result is
// indices.shape + [D]. Rows at padding_idx (negative counts from the end) get no gradient.
EMBER_API Tensor embedding(const Tensor& weight, const Tensor& indices,
                           std::optional<int64_t> padding_idx = std::nullopt);
// In place, as torch::embedding_renorm_: each row of self [num_embeddings, D] that indices name
// (once, however often it occurs) whose norm_type-norm exceeds max_norm is scaled by
// max_norm / (norm + 1e-7). Never recorded by autograd (it runs under its own NoGradGuard, as
// F::embedding's max_norm calls it).
EMBER_API Tensor& embedding_renorm_(Tensor& self, const Tensor& indices, double max_norm,
                                    double norm_type);

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
// The randomized leaky ReLU. Training: each x <= 0 times a slope drawn from U(lower, upper)
// (ember's generator), which also scales its gradient; otherwise leaky_relu with the slope
// (lower + upper) / 2. Refuses lower > upper.
EMBER_API Tensor rrelu(const Tensor& self, const Scalar& lower = 0.125,
                       const Scalar& upper = 0.3333333333333333, bool training = false);
EMBER_API Tensor& rrelu_(Tensor& self, const Scalar& lower = 0.125,
                         const Scalar& upper = 0.3333333333333333, bool training = false);

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
// The rest of ATen's losses, composed of differentiable ops (src/ops/loss_pointwise.cpp and
// loss_margin.cpp); the target broadcasts to the input unless a comment says otherwise.
// |input - target|.
EMBER_API Tensor l1_loss(const Tensor& self, const Tensor& target,
                         int64_t reduction = Reduction::Mean);
// 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target); beta 0 is l1_loss.
EMBER_API Tensor smooth_l1_loss(const Tensor& self, const Tensor& target,
                                int64_t reduction = Reduction::Mean, double beta = 1.0);
// 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta).
EMBER_API Tensor huber_loss(const Tensor& self, const Tensor& target,
                            int64_t reduction = Reduction::Mean, double delta = 1.0);
// target (log target - input), input holding log-probabilities (and target too if log_target).
// Reduction::Mean averages over every element; F::kl_div's kBatchMean divides by the batch.
EMBER_API Tensor kl_div(const Tensor& self, const Tensor& target,
                        int64_t reduction = Reduction::Mean, bool log_target = false);
// -weight (y log x + (1 - y) log(1 - x)) for probabilities x, each log clamped at -100 as
// PyTorch's; target must have the input's shape.
EMBER_API Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                                      const Tensor& weight = Tensor(),
                                      int64_t reduction = Reduction::Mean);
// log(1 + exp(-target * input)) for targets of +-1.
EMBER_API Tensor soft_margin_loss(const Tensor& self, const Tensor& target,
                                  int64_t reduction = Reduction::Mean);
// exp(input) - target input (log_input) or input - target log(input + eps); full adds
// Stirling's approximation of log(target!) where target > 1.
EMBER_API Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input,
                                  bool full, double eps, int64_t reduction);
// max(0, -target (input1 - input2) + margin).
EMBER_API Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2,
                                     const Tensor& target, double margin = 0.0,
                                     int64_t reduction = Reduction::Mean);
// input where target is 1, max(0, margin - input) where it is -1.
EMBER_API Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin = 1.0,
                                      int64_t reduction = Reduction::Mean);
// 1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1; inputs [N, D]
// with target [N], or [D] with target [].
EMBER_API Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2,
                                       const Tensor& target, double margin = 0.0,
                                       int64_t reduction = Reduction::Mean);
// max(0, margin + d(anchor, positive) - d(anchor, negative)) with pairwise_distance(p, eps) as
// d; swap uses d(positive, negative) instead where it is smaller.
EMBER_API Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive,
                                     const Tensor& negative, double margin = 1.0, double p = 2,
                                     double eps = 1e-06, bool swap = false,
                                     int64_t reduction = Reduction::Mean);
// sum over j != y of weight[y] max(0, margin - x[y] + x[j])^p / C per row: input [N, C] or [C],
// target class indices [N] or []; p is 1 or 2.
EMBER_API Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p = 1,
                                   const Scalar& margin = 1, const Tensor& weight = Tensor(),
                                   int64_t reduction = Reduction::Mean);
// sum over target classes j and other classes k of max(0, 1 - (x[j] - x[k])) / C per row: the
// target (int64, the input's shape [N, C] or [C]) lists class indices up to its first -1.
EMBER_API Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target,
                                        int64_t reduction = Reduction::Mean);
// The connectionist temporal classification loss: -log of the probability of the target
// sequence summed over its alignments (with blanks and repeats) to the input steps. log_probs
// [T, N, C] (or unbatched [T, C]) holds log-probabilities, targets are padded [N, S] or the N
// targets concatenated (1-D); each sample n reads its first input_lengths[n] steps and
// target_lengths[n] labels. Mean divides each loss by its target length (at least 1), then
// averages over the batch; zero_infinity zeroes infinite losses (no alignment) and their
// gradient. log_probs' gradient is ATen's (Note [ctc_loss's gradient], src/ops/ctc_loss.cpp).
EMBER_API Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                          IntArrayRef target_lengths, int64_t blank = 0,
                          int64_t reduction = Reduction::Mean, bool zero_infinity = false);
// The same with the lengths as integer tensors.
EMBER_API Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets,
                          const Tensor& input_lengths, const Tensor& target_lengths,
                          int64_t blank = 0, int64_t reduction = Reduction::Mean,
                          bool zero_infinity = false);

}  // namespace ember
