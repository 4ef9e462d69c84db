// The nn::functional forms that check their options before calling the op (the others are
// inline in ember/nn/functional/*.h).
#include "ember/nn/functional.h"

#include <cmath>
#include <numbers>

#include "core/check.h"
#include "ember/ops.h"
#include "ember/reduce.h"

namespace ember::nn::functional {

Tensor gelu(const Tensor& input, const GELUFuncOptions& options) {
  const std::string& approximate = options.approximate();
  if (approximate == "none") return ember::gelu(input);
  EMBER_CHECK_T(ValueError, approximate == "tanh", "[gelu] approximate argument must be either ",
                "none or tanh, got '", approximate, "'");
  const double k = std::sqrt(2.0 / std::numbers::pi);
  return 0.5 * input * (1 + ember::tanh(k * (input + 0.044715 * input.pow(3))));
}

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options) {
  EMBER_CHECK_T(ValueError, options.momentum().has_value(),
                "[batch_norm] momentum must be set: a cumulative moving average (momentum = "
                "nullopt) is not supported");
  if (options.training()) {
    int64_t values_per_channel = input.dim() > 0 ? input.size(0) : 1;
    for (int64_t d = 2; d < input.dim(); ++d) values_per_channel *= input.size(d);
    EMBER_CHECK_T(ValueError, values_per_channel != 1,
                  "[batch_norm] Expected more than 1 value per channel when training, got input "
                  "size ",
                  input.sizes());
  }
  return ember::batch_norm(input, options.weight(), options.bias(), running_mean, running_var,
                           options.training(), *options.momentum(), options.eps());
}

Tensor normalize(const Tensor& input, NormalizeFuncOptions options) {
  const int64_t dim = options.dim();
  Tensor denominator =
      ember::norm(input, options.p(), {dim}, /*keepdim=*/true).clamp_min(options.eps());
  Tensor result = input / denominator;
  if (!options.out()) return result;
  options.out()->copy_(result);
  return *options.out();
}

Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options) {
  EMBER_CHECK_T(NotImplementedError,
                !options.max_norm() && !options.scale_grad_by_freq() && !options.sparse(),
                "[embedding] max_norm, scale_grad_by_freq and sparse are not supported by ember");
  return ember::embedding(weight, input, options.padding_idx());
}

Tensor dropout(Tensor input, const DropoutFuncOptions& options) {
  const double p = options.p();
  EMBER_CHECK_T(ValueError, p >= 0.0 && p <= 1.0,
                "[dropout] dropout probability has to be between 0 and 1, but got ", p);
  Tensor result = ember::dropout(input, p, options.training());
  if (!options.inplace() || result.is_same(input)) return result;
  return input.copy_(result);
}

}  // namespace ember::nn::functional
