// nn::init: PyTorch's initialisers, drawn from ember's generator (manual_seed reproduces them).
#include "ember/nn/init.h"

#include <cmath>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/ops.h"

namespace ember::nn::init {

double calculate_gain(Nonlinearity nonlinearity, double param) {
  switch (nonlinearity) {
    case Nonlinearity::Linear:
    case Nonlinearity::Sigmoid: return 1.0;
    case Nonlinearity::Tanh: return 5.0 / 3.0;
    case Nonlinearity::ReLU: return std::sqrt(2.0);
    case Nonlinearity::LeakyReLU: return std::sqrt(2.0 / (1.0 + param * param));
  }
  return 1.0;
}

std::pair<int64_t, int64_t> calculate_fan_in_and_fan_out(const Tensor& weight) {
  EMBER_CHECK_T(ValueError, weight.dim() >= 2,
                "[init] Fan in and fan out can not be computed for "
                "tensor with fewer than 2 dimensions (got shape ",
                weight.sizes(), ")");
  int64_t receptive = 1;
  for (int64_t d = 2; d < weight.dim(); ++d) receptive *= weight.size(d);
  return {weight.size(1) * receptive, weight.size(0) * receptive};
}

Tensor& uniform_(Tensor& t, double low, double high) {
  NoGradGuard no_grad;
  Tensor r = rand(t.sizes(), TensorOptions(kFloat64).device(t.device()));
  t.copy_(r * (high - low) + low);
  return t;
}

Tensor& normal_(Tensor& t, double mean, double std) {
  NoGradGuard no_grad;
  t.copy_(randn(t.sizes(), TensorOptions(kFloat64).device(t.device())) * std + mean);
  return t;
}

Tensor& constant_(Tensor& t, double value) {
  NoGradGuard no_grad;
  t.fill_(value);
  return t;
}
Tensor& zeros_(Tensor& t) { return constant_(t, 0.0); }
Tensor& ones_(Tensor& t) { return constant_(t, 1.0); }

Tensor& xavier_uniform_(Tensor& t, double gain) {
  auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(t);
  double bound = gain * std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
  return uniform_(t, -bound, bound);
}

Tensor& xavier_normal_(Tensor& t, double gain) {
  auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(t);
  return normal_(t, 0.0, gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out)));
}

namespace {
double kaiming_std(const Tensor& t, double a, FanMode mode, Nonlinearity nonlinearity) {
  auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(t);
  double fan = static_cast<double>(mode == FanMode::FanIn ? fan_in : fan_out);
  return calculate_gain(nonlinearity, a) / std::sqrt(fan);
}
}  // namespace

Tensor& kaiming_uniform_(Tensor& t, double a, FanMode mode, Nonlinearity nonlinearity) {
  double bound = std::sqrt(3.0) * kaiming_std(t, a, mode, nonlinearity);
  return uniform_(t, -bound, bound);
}

Tensor& kaiming_normal_(Tensor& t, double a, FanMode mode, Nonlinearity nonlinearity) {
  return normal_(t, 0.0, kaiming_std(t, a, mode, nonlinearity));
}

}  // namespace ember::nn::init
