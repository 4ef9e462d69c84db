// dropout: a Bernoulli(1 - p) keep mask from ember's generator (rand, so manual_seed applies),
// scaled by 1 / (1 - p), recorded as NativeDropoutBackward0 (grad * mask). The feature and alpha
// forms apply their mask with ordinary ops, as ATen's _dropout_impl does.
#include <algorithm>
#include <cmath>
#include <vector>

#include "autograd/functions/dropout.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"

namespace ember {

Tensor dropout(const Tensor& input, double p, bool training) {
  EMBER_CHECK_T(ValueError, p >= 0.0 && p <= 1.0,
                "[dropout] dropout probability has to be between 0 and 1, but got ", p);
  EMBER_CHECK_T(ValueError, input.defined(), "[dropout] input is an undefined tensor");
  if (!training || p == 0.0) return input;
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()),
                "[dropout] expected a floating-point input, got ", input.scalar_type());
  Tensor mask, out;
  {
    autograd::NoGradGuard no_grad;
    TensorOptions options = TensorOptions(input.scalar_type()).device(input.device());
    if (p == 1.0) {
      mask = zeros(input.sizes(), options);  // nothing survives (and 1 / (1 - p) is infinite)
    } else {
      Tensor keep = rand(input.sizes(), options) < (1.0 - p);
      mask = keep.to(input.scalar_type()) * (1.0 / (1.0 - p));
    }
    out = input * mask;
  }
  if (autograd::needs_grad(input))
    autograd::record({out}, {input}, {mask}, autograd::functions::NativeDropoutBackward0{});
  return out;
}

namespace {

// ATen's _dropout_impl for the feature and alpha forms: one Bernoulli(1 - p) draw per element,
// or per (sample, channel) for the feature forms, applied by mul (and add) so that autograd
// records those ops' nodes and needs none of its own.
Tensor masked_dropout(const char* op, const Tensor& input, double p, bool train, bool feature,
                      bool alpha) {
  EMBER_CHECK_T(ValueError, p >= 0.0 && p <= 1.0, "[", op,
                "] dropout probability has to be between 0 and 1, but got ", p);
  EMBER_CHECK_T(ValueError, input.defined(), "[", op, "] input is an undefined tensor");
  if (p == 0.0 || !train || input.numel() == 0) return input;
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()), "[", op,
                "] expected a floating-point input, got ", input.scalar_type());
  if (p == 1.0) return input * zeros({}, input.options());
  std::vector<int64_t> noise_shape = input.sizes().vec();
  if (feature) {
    EMBER_CHECK_T(ValueError, input.dim() >= 2, "[", op,
                  "] Feature dropout requires at least 2 dimensions in the input");
    std::fill(noise_shape.begin() + 2, noise_shape.end(), 1);
  }
  Tensor keep = empty(noise_shape, input.options()).bernoulli_(1.0 - p);
  if (!alpha) return input * keep.div_(1.0 - p);
  // Dropped values become SELU's saturation -alpha' (alpha' = scale * alpha); a and the shift
  // restore a zero mean and unit variance (Klambauer et al., 2017).
  constexpr double kSaturation = 1.7580993408473766;
  const double a = 1.0 / std::sqrt((kSaturation * kSaturation * p + 1) * (1 - p));
  Tensor shift = (keep - 1) * (kSaturation * a) + kSaturation * a * p;
  return input * keep.mul_(a) + shift;
}

}  // namespace

Tensor feature_dropout(const Tensor& input, double p, bool train) {
  return masked_dropout("feature_dropout", input, p, train, /*feature=*/true, /*alpha=*/false);
}

Tensor alpha_dropout(const Tensor& input, double p, bool train) {
  return masked_dropout("alpha_dropout", input, p, train, /*feature=*/false, /*alpha=*/true);
}

Tensor feature_alpha_dropout(const Tensor& input, double p, bool train) {
  return masked_dropout("feature_alpha_dropout", input, p, train, /*feature=*/true,
                        /*alpha=*/true);
}

}  // namespace ember
