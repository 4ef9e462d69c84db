// dropout: a Bernoulli(1 - p) keep mask from ember's generator (rand, so manual_seed applies),
// scaled by 1 / (1 - p), recorded as NativeDropoutBackward0 (grad * mask).
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

}  // namespace ember
