// The nn::functional forms that check their options before calling the op (the others are
// inline in ember/nn/functional/*.h).
#include "ember/nn/functional.h"

#include <cmath>
#include <numbers>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

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

Tensor local_response_norm(const Tensor& input, const LocalResponseNormFuncOptions& options) {
  const int64_t dim = input.dim(), size = options.size();
  EMBER_CHECK_T(ValueError, dim >= 3,
                "[local_response_norm] Expected 3D or higher dimensionality input (got ", dim,
                " dimensions)");
  EMBER_CHECK_T(ValueError, size > 0, "[local_response_norm] size must be positive, got ", size);
  // LibTorch averages the squares with avg_pool over the channels padded with zeros; the same
  // sum over shifted slices of the padded squares needs no 3-D pooling.
  const int64_t channels = input.size(1);
  std::vector<int64_t> edge_shape = input.sizes().vec();
  edge_shape[1] = size / 2;
  Tensor before = zeros(edge_shape, input.options());
  edge_shape[1] = (size - 1) / 2;
  Tensor padded = cat({before, input * input, zeros(edge_shape, input.options())}, 1);
  Tensor window_sum = padded.narrow(1, 0, channels);
  for (int64_t shift = 1; shift < size; ++shift)
    window_sum = window_sum + padded.narrow(1, shift, channels);
  return input / (window_sum / size * options.alpha() + options.k()).pow(options.beta());
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

namespace {

// The in-place forms (LibTorch's dropout_ and its kin) write the result into the input.
Tensor written_back(bool inplace, Tensor& input, const Tensor& result) {
  if (!inplace || result.is_same(input)) return result;
  return input.copy_(result);
}

void check_probability(double p) {
  EMBER_CHECK_T(ValueError, p >= 0.0 && p <= 1.0,
                "[dropout] dropout probability has to be between 0 and 1, but got ", p);
}

// LibTorch's _dropoutNd_helper: an input without the batch dim (one dim short of batched_dims)
// is dropped as a batch of one.
Tensor feature_dropout_nd(Tensor input, const DropoutFuncOptions& options, int64_t batched_dims) {
  check_probability(options.p());
  const bool batched = input.dim() == batched_dims;
  Tensor batch = batched ? input : input.unsqueeze(0);
  Tensor result = ember::feature_dropout(batch, options.p(), options.training());
  if (!batched) result = result.squeeze(0);
  return written_back(options.inplace(), input, result);
}

// The alpha forms' options differ from DropoutFuncOptions only in their default training.
template <class Options>
Tensor alpha_dropout_with(Tensor input, const Options& options,
                          Tensor (*op)(const Tensor&, double, bool)) {
  check_probability(options.p());
  return written_back(options.inplace(), input, op(input, options.p(), options.training()));
}

}  // namespace

Tensor dropout(Tensor input, const DropoutFuncOptions& options) {
  check_probability(options.p());
  return written_back(options.inplace(), input,
                      ember::dropout(input, options.p(), options.training()));
}

Tensor dropout2d(Tensor input, const Dropout2dFuncOptions& options) {
  return feature_dropout_nd(std::move(input), options, 4);
}

Tensor dropout3d(Tensor input, const Dropout3dFuncOptions& options) {
  return feature_dropout_nd(std::move(input), options, 5);
}

Tensor alpha_dropout(Tensor input, const AlphaDropoutFuncOptions& options) {
  return alpha_dropout_with(std::move(input), options, &ember::alpha_dropout);
}

Tensor feature_alpha_dropout(Tensor input, const FeatureAlphaDropoutFuncOptions& options) {
  return alpha_dropout_with(std::move(input), options, &ember::feature_alpha_dropout);
}

}  // namespace ember::nn::functional
