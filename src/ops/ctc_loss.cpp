// ctc_loss, as ATen's: the connectionist temporal classification loss, composed of
// differentiable ops (no kernel of its own), so it runs on every device and autograd derives its
// backward. The forward (alpha) recursion of Graves et al. runs in log space over each sample's
// extended label sequence l' (its targets with blanks around and between them, 2 S + 1 labels),
// one time step at a time, vectorised over the batch and the positions of l'.
//
// Impossible paths carry kCtcNegative, a large finite negative, instead of -inf, so that the
// log-sum-exp of three impossible predecessors has no NaN gradient; a sample whose likelihood
// stays down there gets an infinite loss (zero with zero_infinity) and no gradient.
//
// Note [ctc_loss's gradient]: ATen's backward of ctc_loss returns, for log_probs,
// exp(log_probs) - (the posterior of each label at each step), at the steps t < T_n of each
// sample: the gradient through a log_softmax, not the plain derivative, which lacks the
// exp(log_probs). Both give the same gradient to the logits under a log_softmax (the extra term
// sums to zero there), and ember reports the same as ATen for a log_probs leaf: each sample's
// loss adds a term whose value is zero and whose gradient is exp(log_probs) at its steps.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "ops/loss_common.h"

namespace ember {
namespace {

// log(0) for the recursion: finite, so exp(x - max) never meets -inf - -inf.
constexpr double kCtcNegative = -1e30;

// A lengths tensor read as int64 values on the CPU: integral only, as ATen's.
std::vector<int64_t> ctc_lengths_vector(const Tensor& lengths, const char* name) {
  EMBER_CHECK_T(TypeError, isIntegralType(lengths.scalar_type(), /*includeBool=*/false),
                "[ctc_loss] ", name, " must be integral, got ", lengths.scalar_type(),
                ": pass int64 lengths");
  return lengths.detach().to(Device(kCPU), kInt64).contiguous().to_vector<int64_t>();
}

// Shifts each row of [N, L] right by `by` positions, filling with kCtcNegative: the alphas of
// positions s - 1 or s - 2 at position s.
Tensor ctc_shift_right(const Tensor& alpha, int64_t by) {
  const int64_t positions = alpha.size(1);
  if (positions <= by) return full_like(alpha, kCtcNegative);
  return constant_pad_nd(alpha.narrow(1, 0, positions - by), {by, 0}, kCtcNegative);
}

Tensor ctc_loss_lengths(const Tensor& log_probs_in, const Tensor& targets,
                        const std::vector<int64_t>& input_lengths,
                        const std::vector<int64_t>& target_lengths, int64_t blank,
                        int64_t reduction, bool zero_infinity) {
  const auto kind = ops::loss_reduction(reduction, "ctc_loss");
  EMBER_CHECK_T(ValueError, log_probs_in.dim() == 3 || log_probs_in.dim() == 2,
                "[ctc_loss] log_probs must be [T, N, C] (or unbatched [T, C]), got shape ",
                log_probs_in.sizes());
  EMBER_CHECK_T(
      TypeError, log_probs_in.scalar_type() == kFloat32 || log_probs_in.scalar_type() == kFloat64,
      "[ctc_loss] log_probs must be float32 or float64, got ", log_probs_in.scalar_type());
  const bool batched = log_probs_in.dim() == 3;
  const Tensor log_probs = batched ? log_probs_in : log_probs_in.unsqueeze(1);
  const int64_t steps = log_probs.size(0), batch = log_probs.size(1), classes = log_probs.size(2);
  EMBER_CHECK_T(ValueError, blank >= 0 && blank < classes,
                "[ctc_loss] blank must be in label range [0, ", classes, "), got ", blank);
  EMBER_CHECK_T(ValueError, static_cast<int64_t>(input_lengths.size()) == batch,
                "[ctc_loss] input_lengths must be of size batch_size: ", batch, " samples, got ",
                input_lengths.size(), " lengths");
  EMBER_CHECK_T(ValueError, static_cast<int64_t>(target_lengths.size()) == batch,
                "[ctc_loss] target_lengths must be of size batch_size: ", batch, " samples, got ",
                target_lengths.size(), " lengths");
  EMBER_CHECK_T(ValueError, targets.dim() == 1 || targets.dim() == 2,
                "[ctc_loss] targets must be 1-D (the targets of every sample concatenated) or "
                "[N, S] (padded), got shape ",
                targets.sizes());
  EMBER_CHECK_T(TypeError, targets.scalar_type() != kBool && !isComplexType(targets.scalar_type()),
                "[ctc_loss] targets must hold class indices, got ", targets.scalar_type());

  int64_t total = 0, longest = 0;
  for (int64_t n = 0; n < batch; ++n) {
    EMBER_CHECK_T(ValueError, input_lengths[size_t(n)] >= 0 && input_lengths[size_t(n)] <= steps,
                  "[ctc_loss] Expected input_lengths to have values in [0, ", steps,
                  "] (the time steps of log_probs), but got value ", input_lengths[size_t(n)],
                  " for sample ", n);
    EMBER_CHECK_T(ValueError, target_lengths[size_t(n)] >= 0,
                  "[ctc_loss] Expected target_lengths to have value at least 0, but got value ",
                  target_lengths[size_t(n)], " for sample ", n);
    total += target_lengths[size_t(n)];
    longest = std::max(longest, target_lengths[size_t(n)]);
  }
  const bool concatenated = targets.dim() == 1;
  if (concatenated) {
    EMBER_CHECK_T(ValueError, targets.size(0) == total,
                  "[ctc_loss] concatenated targets must hold sum(target_lengths) = ", total,
                  " labels, got shape ", targets.sizes());
  } else {
    EMBER_CHECK_T(ValueError, targets.size(0) == batch && targets.size(1) >= longest,
                  "[ctc_loss] padded targets must be [N, S] with N = ", batch,
                  " and S at least the longest target length ", longest, ", got shape ",
                  targets.sizes());
  }

  // The extended labels l' of each sample (blank-padded to the longest), and where l' may skip
  // the label before: l'[s] is no blank and differs from l'[s - 2].
  const std::vector<int64_t> labels =
      targets.detach().to(Device(kCPU), kInt64).contiguous().to_vector<int64_t>();
  const int64_t positions = 2 * longest + 1;
  std::vector<int64_t> extended(size_t(batch * positions), blank);
  std::vector<int64_t> skip(size_t(batch * positions), 0);
  std::vector<int64_t> ends(static_cast<size_t>(batch * 2));
  std::vector<int64_t> two_ends(static_cast<size_t>(batch * 2));
  std::vector<uint8_t> impossible_early(static_cast<size_t>(batch));
  std::vector<uint8_t> active(static_cast<size_t>(steps * batch));
  int64_t offset = 0;
  for (int64_t n = 0; n < batch; ++n) {
    const int64_t length = target_lengths[size_t(n)];
    const int64_t start = concatenated ? offset : n * targets.size(1);
    for (int64_t s = 0; s < length; ++s) {
      const int64_t label = labels[size_t(start + s)];
      EMBER_CHECK_T(IndexError, label >= 0 && label < classes && label != blank,
                    "[ctc_loss] target ", s, " of sample ", n, " is ", label,
                    ": targets must be class indices in [0, ", classes, ") other than the blank ",
                    blank);
      const size_t at = size_t(n * positions + 2 * s + 1);
      extended[at] = label;
      skip[at] = s > 0 && label != labels[size_t(start + s - 1)];
    }
    offset += length;
    // The likelihood sums the alphas of the last blank and the last label (if any).
    ends[size_t(2 * n)] = 2 * length;
    ends[size_t(2 * n + 1)] = length > 0 ? 2 * length - 1 : 0;
    two_ends[size_t(2 * n + 1)] = length > 0;
    two_ends[size_t(2 * n)] = 1;
    impossible_early[size_t(n)] = input_lengths[size_t(n)] == 0 && length > 0;
    for (int64_t t = 0; t < input_lengths[size_t(n)]; ++t) active[size_t(t * batch + n)] = 1;
  }
  const Device device = log_probs.device();
  // Host vectors as tensors on log_probs' device, each of its own element type.
  const TensorOptions device_options = TensorOptions().device(device);
  const Tensor extended_t = tensor(extended, device_options).reshape({batch, positions});
  const Tensor skip_t = tensor(skip, device_options).reshape({batch, positions}) != 0;
  const Tensor active_t = tensor(active, device_options).reshape({steps, batch}) != 0;  // t < T_n

  // log_probs at l': [T, N, 2 S + 1], with -inf (a probability of 0) raised to kCtcNegative.
  const Tensor emissions =
      log_probs.gather(2, extended_t.unsqueeze(0).expand({steps, batch, positions}).contiguous())
          .clamp_min(kCtcNegative);
  // Step t's emissions, selected from a block of about sqrt(T) steps: the backward of a select
  // places its gradient in zeros of the whole tensor, so selecting each step from all T would
  // cost O(T^2 N S) in the backward; blocks make that O(T^1.5 N S).
  const int64_t block_steps = std::max<int64_t>(1, std::llround(std::sqrt(double(steps))));
  Tensor block;
  int64_t block_start = 0;
  auto emissions_at = [&](int64_t t) {
    if (!block.defined() || t >= block_start + block.size(0)) {
      block_start = t;
      block = emissions.narrow(0, t, std::min(block_steps, steps - t));
    }
    return block.select(0, t - block_start);
  };
  Tensor alpha = full({batch, positions}, kCtcNegative, log_probs.options());
  if (steps > 0) {
    const Tensor first = arange(positions, TensorOptions(kInt64).device(device)) < 2;
    alpha = where(first.unsqueeze(0), emissions_at(0), kCtcNegative);
  }
  for (int64_t t = 1; t < steps; ++t) {
    const Tensor stay = alpha, step = ctc_shift_right(alpha, 1),
                 jump = where(skip_t, ctc_shift_right(alpha, 2), kCtcNegative);
    const Tensor top = max(max(stay, step), jump).detach();
    const Tensor sum = log(exp(stay - top) + exp(step - top) + exp(jump - top)) + top;
    alpha = where(active_t.select(0, t).unsqueeze(1), sum + emissions_at(t), alpha);
  }
  const Tensor finals =
      where(tensor(two_ends, device_options).reshape({batch, 2}) != 0,
            alpha.gather(1, tensor(ends, device_options).reshape({batch, 2})), kCtcNegative);
  const Tensor likelihood = logsumexp(finals, {1});

  // Note [ctc_loss's gradient]: zero, with the gradient exp(log_probs) at the steps t < T_n (as
  // a function of log_probs, so that second derivatives hold too).
  const Tensor probs = exp(log_probs);
  const Tensor counted =
      logical_and(active_t.unsqueeze(2), probs.detach() != std::numeric_limits<double>::infinity());
  const Tensor zero_value = where(counted, probs - exp(log_probs.detach()), 0.0);
  const Tensor losses_finite = zero_value.sum({0, 2}) - likelihood;

  const Tensor zero_steps = tensor(input_lengths, device_options).reshape({batch}) == 0;
  const Tensor impossible =
      logical_or(likelihood < kCtcNegative / 2,
                 tensor(impossible_early, device_options).reshape({batch}) != 0);
  Tensor losses = where(logical_and(zero_steps, logical_not(impossible)), 0.0, losses_finite);
  losses = where(impossible, zero_infinity ? 0.0 : std::numeric_limits<double>::infinity(), losses);

  if (kind == Reduction::Mean) {
    const Tensor lengths =
        tensor(target_lengths, device_options).reshape({batch}).to(losses.scalar_type());
    return (losses / lengths.clamp_min(1)).mean();
  }
  if (kind == Reduction::Sum) return losses.sum();
  return batched ? losses : losses.squeeze(0);
}

}  // namespace

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                IntArrayRef target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  return ctc_loss_lengths(log_probs, targets,
                          std::vector<int64_t>(input_lengths.begin(), input_lengths.end()),
                          std::vector<int64_t>(target_lengths.begin(), target_lengths.end()), blank,
                          reduction, zero_infinity);
}

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank, int64_t reduction,
                bool zero_infinity) {
  return ctc_loss_lengths(log_probs, targets, ctc_lengths_vector(input_lengths, "input_lengths"),
                          ctc_lengths_vector(target_lengths, "target_lengths"), blank, reduction,
                          zero_infinity);
}

}  // namespace ember
