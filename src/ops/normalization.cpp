// layer_norm and batch_norm: the forward composes ember ops under NoGradGuard and records one
// node (NativeLayerNormBackward0 / NativeBatchNormBackward0) with the closed-form gradient of
// autograd/functions/normalization.h. group_norm and instance_norm are layer_norm of a reshape
// (Note [Group and instance norm through layer_norm]).
// float16 and bfloat16 compute in float32 both ways (autograd::in_opmath), as PyTorch's kernels
// do: near-constant groups make rstd large and x - mean small, which 16 bits cannot resolve.
#include <utility>
#include <vector>

#include "autograd/functions/normalization.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "kernels/tensor_iter.h"

namespace ember {
namespace {

void check_affine(const char* op, const char* name, const Tensor& t, IntArrayRef shape,
                  const Tensor& input) {
  if (!t.defined()) return;
  EMBER_CHECK_T(ValueError, t.sizes() == shape, "[", op, "] expected ", name, " of size ", shape,
                " for input of size ", input.sizes(), ", but got ", name, " of size ", t.sizes());
}

// Note [Group and instance norm through layer_norm]
// Both normalise each (sample, group of channels) over all its values with the biased variance:
// that is layer_norm over the last dim of input viewed as [N, groups, -1] (instance_norm: one
// channel a group), with the per-channel weight and bias applied after as broadcast ops. So
// neither has a kernel or a backward formula of its own (PyTorch records
// NativeGroupNormBackward0; ember NativeLayerNormBackward0 and the affine's MulBackward0 and
// AddBackward0), and both run on every device layer_norm runs on.
Tensor normalize_groups(const Tensor& input, int64_t groups, double eps) {
  const int64_t rows = input.size(0) * groups;
  const int64_t row_length = rows == 0 ? 0 : input.numel() / rows;
  return layer_norm(input.reshape({input.size(0), groups, row_length}), {row_length}, {}, {}, eps)
      .view(input.sizes());
}

// out * weight + bias, each of [C] (or undefined) broadcast along dim 1 of out.
Tensor affine_per_channel(Tensor out, const Tensor& weight, const Tensor& bias) {
  std::vector<int64_t> channel_shape(static_cast<size_t>(out.dim()), 1);
  channel_shape[1] = out.size(1);
  if (weight.defined()) out = out * weight.view(channel_shape);
  if (bias.defined()) out = out + bias.view(channel_shape);
  return out;
}

// Instances are [N, C, *]: PyTorch's message when there is no channel dim.
void check_has_channels(const char* op, const Tensor& input) {
  EMBER_CHECK_T(ValueError, input.defined(), "[", op, "] input is an undefined tensor");
  EMBER_CHECK_T(ValueError, input.dim() >= 2, "[", op,
                "] Expected at least 2 dimensions for input tensor but received ", input.dim());
}

}  // namespace

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps) {
  EMBER_CHECK_T(ValueError, input.defined(), "[layer_norm] input is an undefined tensor");
  kernels::common_device("layer_norm", {&input, &weight, &bias}, {"input", "weight", "bias"});
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()),
                "[layer_norm] expected a floating-point input, got ", input.scalar_type());
  const int64_t nd = static_cast<int64_t>(normalized_shape.size()), lead = input.dim() - nd;
  bool fits = nd >= 1 && lead >= 0;
  for (int64_t i = 0; fits && i < nd; ++i) fits = input.size(lead + i) == normalized_shape[i];
  EMBER_CHECK_T(ValueError, fits, "[layer_norm] Given normalized_shape=", normalized_shape,
                ", expected the input's last ", nd, " dims to be ", normalized_shape,
                " (input of shape [*, ...normalized_shape]), but got input of size ",
                input.sizes());
  check_affine("layer_norm", "weight", weight, normalized_shape, input);
  check_affine("layer_norm", "bias", bias, normalized_shape, input);
  int64_t rows = 1, cols = 1;
  for (int64_t i = 0; i < input.dim(); ++i) (i < lead ? rows : cols) *= input.size(i);

  using autograd::in_opmath;
  Tensor out, mean, rstd;
  {
    autograd::NoGradGuard no_grad;
    Tensor x = in_opmath(input).reshape({rows, cols});
    mean = x.mean({1}, true);
    Tensor centered = x - mean;
    rstd = rsqrt((centered * centered).mean({1}, true) + eps);
    out = (centered * rstd).view(input.sizes());
    if (weight.defined()) out = out * in_opmath(weight);
    if (bias.defined()) out = out + in_opmath(bias);
    out = out.to(input.scalar_type());
  }
  if (autograd::needs_grad(input, weight, bias))
    autograd::record(
        {out}, {input, weight, bias}, {input, weight, mean, rstd},
        autograd::functions::NativeLayerNormBackward0{rows, cols, normalized_shape.vec(), eps});
  return out;
}

Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  Tensor running_mean, Tensor running_var, bool training, double momentum,
                  double eps) {
  EMBER_CHECK_T(ValueError, input.defined(), "[batch_norm] input is an undefined tensor");
  kernels::common_device("batch_norm", {&input, &weight, &bias, &running_mean, &running_var},
                         {"input", "weight", "bias", "running_mean", "running_var"});
  EMBER_CHECK_T(ValueError, input.dim() >= 2,
                "[batch_norm] expected an input of [N, C] or [N, C, *] (at least 2-D), but got "
                "input of size ",
                input.sizes());
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()),
                "[batch_norm] expected a floating-point input, got ", input.scalar_type());
  const int64_t channels = input.size(1);
  check_affine("batch_norm", "weight", weight, channels, input);
  check_affine("batch_norm", "bias", bias, channels, input);
  check_affine("batch_norm", "running_mean", running_mean, channels, input);
  check_affine("batch_norm", "running_var", running_var, channels, input);
  EMBER_CHECK_T(ValueError, training || (running_mean.defined() && running_var.defined()),
                "[batch_norm] running_mean and running_var must be defined when training=false "
                "(eval mode normalises with them); pass them, or use training=true");
  std::vector<int64_t> dims{0}, stat_shape(static_cast<size_t>(input.dim()), 1);
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  stat_shape[1] = channels;
  const int64_t count = channels == 0 ? 0 : input.numel() / channels;
  EMBER_CHECK_T(ValueError, !training || count > 1,
                "[batch_norm] Expected more than 1 value per channel when training, got input "
                "size ",
                input.sizes());

  using autograd::in_opmath;
  const ScalarType compute = autograd::opmath_type(input.scalar_type());
  Tensor out, mean, rstd;
  {
    autograd::NoGradGuard no_grad;
    Tensor x = in_opmath(input);
    if (training) {
      mean = x.mean(dims, true);
      Tensor centered = x - mean;
      Tensor var = (centered * centered).mean(dims, true);  // biased: normalises the batch
      rstd = rsqrt(var + eps);
      if (running_mean.defined())
        running_mean.mul_(1.0 - momentum).add_(mean.view({channels}) * momentum);
      if (running_var.defined())  // unbiased, as PyTorch
        running_var.mul_(1.0 - momentum)
            .add_(var.view({channels}) * (momentum * static_cast<double>(count) / (count - 1)));
    } else {
      // Copies, so later in-place updates of the running stats leave the saved ones intact.
      mean = running_mean.to(compute, false, true).view(stat_shape);
      rstd = rsqrt(running_var.to(compute).view(stat_shape) + eps);
    }
    out = (x - mean) * rstd;
    if (weight.defined()) out = out * in_opmath(weight).view(stat_shape);
    if (bias.defined()) out = out + in_opmath(bias).view(stat_shape);
    out = out.to(input.scalar_type());
  }
  if (autograd::needs_grad(input, weight, bias))
    autograd::record(
        {out}, {input, weight, bias}, {input, weight, mean, rstd},
        autograd::functions::NativeBatchNormBackward0{training, eps, dims, stat_shape});
  return out;
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const Tensor& weight, const Tensor& bias,
                  double eps, bool /*cudnn_enabled*/) {
  check_has_channels("group_norm", input);
  const int64_t channels = input.size(1);
  EMBER_CHECK_T(ValueError, num_groups > 0 && channels % num_groups == 0,
                "[group_norm] Expected number of channels in input to be divisible by "
                "num_groups, but got input of shape ",
                input.sizes(), " and num_groups=", num_groups);
  for (const auto& [name, t] : {std::pair{"weight", &weight}, std::pair{"bias", &bias}})
    EMBER_CHECK_T(ValueError, !t->defined() || (t->dim() == 1 && t->numel() == channels),
                  "[group_norm] Expected ", name,
                  " to be a vector of size equal to the number of channels in input, but got ",
                  name, " of shape ", t->sizes(), " and input of shape ", input.sizes());
  return affine_per_channel(normalize_groups(input, num_groups, eps), weight, bias);
}

Tensor instance_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& running_mean, const Tensor& running_var, bool use_input_stats,
                     double momentum, double eps, bool /*cudnn_enabled*/) {
  check_has_channels("instance_norm", input);
  const int64_t channels = input.size(1);
  check_affine("instance_norm", "weight", weight, channels, input);
  check_affine("instance_norm", "bias", bias, channels, input);
  check_affine("instance_norm", "running_mean", running_mean, channels, input);
  check_affine("instance_norm", "running_var", running_var, channels, input);
  if (!use_input_stats)
    return batch_norm(input, weight, bias, running_mean, running_var, false, momentum, eps);
  if (running_mean.defined() || running_var.defined()) {
    // ATen runs batch_norm on [1, N * C, *] with the running statistics repeated N times, then
    // keeps their mean over the batch: the mean over the batch of each instance's statistics.
    autograd::NoGradGuard no_grad;
    Tensor instances = input.reshape({input.size(0), channels, -1});
    if (running_mean.defined())
      running_mean.mul_(1.0 - momentum).add_(instances.mean({2}).mean({0}) * momentum);
    if (running_var.defined())
      running_var.mul_(1.0 - momentum).add_(instances.var(2).mean({0}) * momentum);
  }
  return affine_per_channel(normalize_groups(input, channels, eps), weight, bias);
}

}  // namespace ember
