// nn::init: PyTorch's initialisers, drawn from ember's generator (manual_seed reproduces them).
#include "ember/nn/init.h"

#include <cmath>
#include <vector>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "ember/tensor_accessor.h"

namespace ember::nn::init {
namespace {

struct Gain {
  double param;
  double operator()(enumtype::kLinear) const { return 1.0; }
  double operator()(enumtype::kConv1D) const { return 1.0; }
  double operator()(enumtype::kConv2D) const { return 1.0; }
  double operator()(enumtype::kConv3D) const { return 1.0; }
  double operator()(enumtype::kConvTranspose1D) const { return 1.0; }
  double operator()(enumtype::kConvTranspose2D) const { return 1.0; }
  double operator()(enumtype::kConvTranspose3D) const { return 1.0; }
  double operator()(enumtype::kSigmoid) const { return 1.0; }
  double operator()(enumtype::kTanh) const { return 5.0 / 3.0; }
  double operator()(enumtype::kReLU) const { return std::sqrt(2.0); }
  double operator()(enumtype::kLeakyReLU) const { return std::sqrt(2.0 / (1.0 + param * param)); }
};

double kaiming_std(const Tensor& t, double a, FanModeType mode, NonlinearityType nonlinearity) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(t);
  const int64_t fan = std::holds_alternative<enumtype::kFanIn>(mode) ? fan_in : fan_out;
  return calculate_gain(nonlinearity, a) / std::sqrt(static_cast<double>(fan));
}

// The Q of rows x cols (rows >= cols) `a`'s thin QR decomposition whose R has a positive
// diagonal, by modified Gram-Schmidt in double. That Q is unique for a full-rank `a`, so it is
// the one PyTorch's orthogonal_ gets from LAPACK's QR and its sign correction.
Tensor orthonormal_columns(const Tensor& a) {
  Tensor q = a.to(kFloat64).contiguous().clone();
  auto m = q.accessor<double, 2>();
  const int64_t rows = q.size(0), cols = q.size(1);
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t k = 0; k < j; ++k) {
      double dot = 0;
      for (int64_t i = 0; i < rows; ++i) dot += m[i][k] * m[i][j];
      for (int64_t i = 0; i < rows; ++i) m[i][j] -= dot * m[i][k];
    }
    double norm = 0;
    for (int64_t i = 0; i < rows; ++i) norm += m[i][j] * m[i][j];
    norm = std::sqrt(norm);
    EMBER_CHECK_T(ValueError, norm > 0, "[orthogonal_] the random matrix drawn is rank-deficient");
    for (int64_t i = 0; i < rows; ++i) m[i][j] /= norm;
  }
  return q;
}

}  // namespace

double calculate_gain(NonlinearityType nonlinearity, double param) {
  return std::visit(Gain{param}, nonlinearity);
}

std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor) {
  EMBER_CHECK_T(ValueError, tensor.dim() >= 2,
                "[init] Fan in and fan out can not be computed for "
                "tensor with fewer than 2 dimensions (got shape ",
                tensor.sizes(), ")");
  int64_t receptive = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive *= tensor.size(d);
  return {tensor.size(1) * receptive, tensor.size(0) * receptive};
}

Tensor uniform_(Tensor tensor, double low, double high) {
  NoGradGuard no_grad;
  return tensor.uniform_(low, high);
}

Tensor normal_(Tensor tensor, double mean, double std) {
  NoGradGuard no_grad;
  return tensor.normal_(mean, std);
}

Tensor constant_(Tensor tensor, Scalar value) {
  NoGradGuard no_grad;
  return tensor.fill_(value);
}
Tensor zeros_(Tensor tensor) { return constant_(std::move(tensor), 0); }
Tensor ones_(Tensor tensor) { return constant_(std::move(tensor), 1); }

Tensor eye_(Tensor matrix) {
  EMBER_CHECK_T(ValueError, matrix.dim() == 2,
                "[eye_] Only tensors with 2 dimensions are supported, got ", matrix.dim());
  NoGradGuard no_grad;
  return matrix.copy_(eye(matrix.size(0), matrix.size(1), matrix.options()));
}

Tensor dirac_(Tensor tensor) {
  const int64_t dims = tensor.dim();
  EMBER_CHECK_T(ValueError, dims >= 3 && dims <= 5,
                "[dirac_] Only tensors with 3, 4, or 5 dimensions are supported, got ", dims);
  NoGradGuard no_grad;
  tensor.zero_();
  const int64_t n = std::min(tensor.size(0), tensor.size(1));
  for (int64_t d = 0; d < n; ++d) {
    Tensor kernel = tensor[d][d];
    for (int64_t k = 2; k < dims; ++k) kernel = kernel[tensor.size(k) / 2];
    kernel.fill_(1);
  }
  return tensor;
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double bound = gain * std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor xavier_normal_(Tensor tensor, double gain) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
  return normal_(std::move(tensor), 0.0, std);
}

Tensor kaiming_uniform_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  if (tensor.numel() == 0) return tensor;  // Linear(0, n): nothing to fill, and a fan of 0
  const double bound = std::sqrt(3.0) * kaiming_std(tensor, a, mode, nonlinearity);
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor kaiming_normal_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  if (tensor.numel() == 0) return tensor;
  const double std = kaiming_std(tensor, a, mode, nonlinearity);
  return normal_(std::move(tensor), 0.0, std);
}

Tensor orthogonal_(Tensor tensor, double gain) {
  EMBER_CHECK_T(ValueError, tensor.dim() >= 2,
                "[orthogonal_] Only tensors with 2 or more dimensions are supported, got ",
                tensor.dim());
  NoGradGuard no_grad;
  const int64_t rows = tensor.size(0), cols = tensor.numel() / std::max<int64_t>(rows, 1);
  if (tensor.numel() == 0) return tensor;
  Tensor flat = randn({rows, cols}, kFloat64);
  const bool wide = rows < cols;
  Tensor q = orthonormal_columns(wide ? flat.t() : flat);
  if (wide) q = q.t();
  tensor.view_as(q).copy_(q * gain);
  return tensor;
}

Tensor sparse_(Tensor tensor, double sparsity, double std) {
  EMBER_CHECK_T(ValueError, tensor.dim() == 2,
                "[sparse_] Only tensors with 2 dimensions are supported, got ", tensor.dim());
  NoGradGuard no_grad;
  const int64_t rows = tensor.size(0), cols = tensor.size(1);
  const auto zeroed = static_cast<int64_t>(std::ceil(sparsity * static_cast<double>(rows)));
  tensor.normal_(0, std);
  for (int64_t c = 0; c < cols; ++c) {
    Tensor picked = randperm(rows).slice(0, 0, zeroed).to(tensor.device());
    tensor.select(1, c).index_fill_(0, picked, 0);
  }
  return tensor;
}

Tensor trunc_normal_(Tensor tensor, double mean, double std, double a, double b) {
  EMBER_CHECK_T(ValueError, a < b && std > 0, "[trunc_normal_] needs a < b and std > 0, got a=", a,
                ", b=", b, ", std=", std);
  // Rejection: values outside [a, b] are drawn again, which keeps the normal's shape inside;
  // refused where too few draws would land there to end in a few rounds.
  auto cdf = [&](double x) { return 0.5 * (1 + std::erf((x - mean) / (std * std::sqrt(2.0)))); };
  EMBER_CHECK_T(ValueError, cdf(b) - cdf(a) > 1e-3, "[trunc_normal_] [", a, ", ", b,
                "] holds too little of N(", mean, ", ", std,
                "^2) to sample by rejection; move mean nearer the interval");
  NoGradGuard no_grad;
  tensor.normal_(mean, std);
  auto outside_bounds = [&] { return (tensor < a) | (tensor > b); };
  for (Tensor outside = outside_bounds(); outside.any().item<bool>(); outside = outside_bounds())
    tensor.copy_(where(outside, empty_like(tensor).normal_(mean, std), tensor));
  return tensor;
}

}  // namespace ember::nn::init
