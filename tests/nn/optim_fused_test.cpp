// The fused optimizer steps (Note [Fused optimizer steps]) against PyTorch's update rules written
// here as plain loops in double: several steps, every option, every floating dtype, a strided
// parameter, and the same on every visible GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

using Values = std::vector<double>;

// SGD with momentum, PyTorch's torch.optim.SGD for one parameter, in double.
struct SgdReference {
  optim::SGDOptions o;
  Values buf;

  void step(Values& p, const Values& g) {
    const bool first = buf.empty();
    if (first) buf.assign(p.size(), 0.0);
    for (size_t i = 0; i < p.size(); ++i) {
      double d = g[i] + o.weight_decay() * p[i];
      buf[i] = first ? d : o.momentum() * buf[i] + (1 - o.dampening()) * d;
      d = o.nesterov() ? d + o.momentum() * buf[i] : buf[i];
      p[i] -= o.lr() * d;
    }
  }
};

// torch.optim.Adam / AdamW (with AMSGrad's running maximum vmax) for one parameter, in double.
struct AdamReference {
  optim::AdamOptions o;
  bool decoupled;
  Values m, v, vmax;
  int t = 0;

  void step(Values& p, const Values& g) {
    if (m.empty()) m.assign(p.size(), 0.0), v.assign(p.size(), 0.0), vmax.assign(p.size(), 0.0);
    ++t;
    const auto [beta1, beta2] = o.betas();
    const double bias1 = 1 - std::pow(beta1, t), bias2 = 1 - std::pow(beta2, t);
    for (size_t i = 0; i < p.size(); ++i) {
      double grad = g[i];
      if (decoupled) p[i] *= 1 - o.lr() * o.weight_decay();
      else grad += o.weight_decay() * p[i];
      m[i] = beta1 * m[i] + (1 - beta1) * grad;
      v[i] = beta2 * v[i] + (1 - beta2) * grad * grad;
      vmax[i] = std::max(vmax[i], v[i]);
      const double second = o.amsgrad() ? vmax[i] : v[i];
      p[i] -= o.lr() / bias1 * m[i] / (std::sqrt(second) / std::sqrt(bias2) + o.eps());
    }
  }
};

double tolerance(ScalarType dtype) {
  return dtype == kFloat64 ? 1e-12 : dtype == kFloat32 ? 2e-6 : dtype == kFloat16 ? 2e-2 : 8e-2;
}

// Runs `steps` steps of `optimizer` (made for the parameter) and of the reference on the same
// gradients (those of sum(p * c) for a new random c each step), comparing after each.
void expect_steps_match(const std::string& what, Tensor p,
                        const std::function<std::unique_ptr<optim::Optimizer>(Tensor)>& make,
                        const std::function<void(Values&, const Values&)>& reference) {
  SCOPED_TRACE(what);
  Values want = p.to_vector<double>();
  auto optimizer = make(p);
  const double tol = tolerance(p.scalar_type());
  for (int s = 0; s < 4; ++s) {
    Tensor c = randn(p.sizes(), kFloat64);
    optimizer->zero_grad();
    (p * c.to(p.device(), p.scalar_type())).sum().backward();
    optimizer->step();
    reference(want, p.grad().to_vector<double>());
    const Values got = p.to_vector<double>();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "step " << s << " at " << i;
  }
}

std::vector<std::pair<std::string, optim::SGDOptions>> sgd_cases() {
  return {{"momentum", optim::SGDOptions(0.1).momentum(0.9)},
          {"dampening", optim::SGDOptions(0.05).momentum(0.8).dampening(0.3)},
          {"nesterov and weight decay",
           optim::SGDOptions(0.1).momentum(0.9).weight_decay(0.01).nesterov(true)}};
}

std::vector<std::pair<std::string, optim::AdamOptions>> adam_cases() {
  return {{"defaults", optim::AdamOptions(0.01)},
          {"weight decay", optim::AdamOptions(0.02).betas({0.8, 0.99}).weight_decay(0.1)},
          {"amsgrad", optim::AdamOptions(0.02).weight_decay(0.1).amsgrad(true)}};
}

void expect_fused_steps_on(Device device, ScalarType dtype, IntArrayRef shape, bool strided) {
  auto parameter = [&] {
    Tensor base = randn(strided ? IntArrayRef{shape[1], shape[0]} : shape, kFloat64);
    base = base.to(device, dtype);
    return (strided ? base.t() : base).detach().requires_grad_(true);
  };
  const std::string where =
      std::string(toString(dtype)) + " on " + device.str() + (strided ? ", strided" : "");
  for (const auto& [name, o] : sgd_cases()) {
    Tensor p = parameter();
    EXPECT_EQ(p.is_contiguous(), !strided);
    SgdReference ref{o, {}};
    expect_steps_match(
        "SGD " + name + ", " + where, p,
        [o = o](Tensor t) { return std::make_unique<optim::SGD>(std::vector<Tensor>{t}, o); },
        [&ref](Values& v, const Values& g) { ref.step(v, g); });
  }
  // Adam keeps its second moment in the parameter's dtype, as PyTorch: in float16, (1 - beta2) g^2
  // underflows to 0 for |g| < 0.008 and the step explodes (mixed precision keeps float32 masters).
  if (dtype == kFloat16) return;
  for (bool decoupled : {false, true})
    for (const auto& [name, o] : adam_cases()) {
      AdamReference ref{o, decoupled, {}, {}, {}};
      expect_steps_match(
          std::string(decoupled ? "AdamW " : "Adam ") + name + ", " + where, parameter(),
          [o = o, decoupled](Tensor t) -> std::unique_ptr<optim::Optimizer> {
            std::vector<Tensor> params{t};
            if (decoupled) {
              return std::make_unique<optim::AdamW>(params, optim::AdamWOptions(o.lr())
                                                                .betas(o.betas())
                                                                .weight_decay(o.weight_decay())
                                                                .amsgrad(o.amsgrad()));
            }
            return std::make_unique<optim::Adam>(params, o);
          },
          [&ref](Values& v, const Values& g) { ref.step(v, g); });
    }
}

TEST(NnOptimFused, StepsMatchPyTorchsRulesOnTheCpu) {
  manual_seed(11);
  for (ScalarType dtype : {kFloat64, kFloat32, kFloat16, kBFloat16})
    expect_fused_steps_on(Device::cpu(), dtype, {70000}, false);  // threaded: two ranges
  expect_fused_steps_on(Device::cpu(), kFloat32, {30, 40}, true);
  expect_fused_steps_on(Device::cpu(), kFloat64, {3, 5}, false);
}

TEST(NnOptimFused, StepsMatchPyTorchsRulesOnEveryGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(12);
  for (Device device : all_devices()) {
    if (!device.is_cuda()) continue;
    for (ScalarType dtype : {kFloat64, kFloat32, kFloat16, kBFloat16})
      expect_fused_steps_on(device, dtype, {70000}, false);
    expect_fused_steps_on(device, kFloat32, {30, 40}, true);
  }
}

// No gradient, no step: the parameter and the state are left as they are.
TEST(NnOptimFused, ParametersWithoutGradientsStayPut) {
  Tensor a = ones({3}).requires_grad_(true), b = ones({2}).requires_grad_(true);
  optim::Adam adam({a, b}, 0.1);
  (a * 2.0).sum().backward();
  adam.step();
  expect_close(b, {2}, {1, 1}, 0, 0);
  expect_close(a, {3}, {0.9, 0.9, 0.9}, 1e-6, 1e-6);  // the first step moves by lr * sign(g)
}

}  // namespace
}  // namespace ember::test
