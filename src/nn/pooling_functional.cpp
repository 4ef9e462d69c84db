// The nn::functional pools that are more than a call of their op: lp_pool1d/2d and the default
// output size of max_unpool, as LibTorch's torch/nn/functional/pooling.h.
#include <cmath>

#include "core/check.h"
#include "ember/nn/functional/pooling.h"
#include "ember/ops.h"

namespace ember::nn::functional {

std::vector<int64_t> detail::unpool_output_size(
    const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
    const std::optional<std::vector<int64_t>>& output_size) {
  const size_t dims = kernel_size.size();
  const int64_t lead = input.dim() - static_cast<int64_t>(dims);
  if (!output_size) {
    std::vector<int64_t> size;
    for (size_t d = 0; d < dims; ++d)
      size.push_back((input.size(lead + static_cast<int64_t>(d)) - 1) * stride[d] + kernel_size[d] -
                     2 * padding[d]);
    return size;
  }
  IntArrayRef given(*output_size);
  if (given.size() == static_cast<size_t>(input.dim())) given = given.slice(lead);
  EMBER_CHECK_T(ValueError, given.size() == dims, "[max_unpool", dims,
                "d] output_size should be a sequence containing ", dims, " or ", input.dim(),
                " elements, but it has a length of '", output_size->size(), "'");
  return given.vec();
}

namespace {
// (window * average of x^p)^(1/p), LibTorch's sign(s) * relu(|s|) making a negative sum 0.
Tensor lp_norm_of_averages(const Tensor& averages, double p, int64_t window) {
  return (ember::sign(averages) * ember::relu(ember::abs(averages))).mul(window).pow(1.0 / p);
}
}  // namespace

Tensor lp_pool1d(const Tensor& input, const LPPool1dFuncOptions& options) {
  const double p = options.norm_type();
  const auto& k = *options.kernel_size();
  return lp_norm_of_averages(
      ember::avg_pool1d(input.pow(p), k, options.stride(), 0, options.ceil_mode()), p, k[0]);
}

Tensor lp_pool2d(const Tensor& input, const LPPool2dFuncOptions& options) {
  const double p = options.norm_type();
  const auto& k = *options.kernel_size();
  return lp_norm_of_averages(
      ember::avg_pool2d(input.pow(p), k, options.stride(), 0, options.ceil_mode()), p, k[0] * k[1]);
}

}  // namespace ember::nn::functional
