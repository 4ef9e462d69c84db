// gradcheck: compares autograd's gradients with central finite differences in float64.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace ember::test {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

// For a random projection v of f's output, d<v, f(x)>/dx from backward() must match
// (L(x + eps e_j) - L(x - eps e_j)) / 2 eps for every element j of every input.
inline void gradcheck(const std::string& what, const Fn& f, const std::vector<Tensor>& inputs,
                      Device device = Device::cpu(), double tol = 1e-6) {
  std::vector<Tensor> xs;
  for (const Tensor& x : inputs) xs.push_back(x.to(kFloat64).to(device).clone().requires_grad_());
  Tensor out = f(xs);
  ASSERT_TRUE(out.requires_grad()) << what << ": output does not require grad";
  manual_seed(1234);
  Tensor v = randn(out.sizes(), TensorOptions(kFloat64).device(device));
  (out * v).sum().backward();

  NoGradGuard no_grad;
  auto loss = [&] { return (f(xs) * v).sum().item<double>(); };
  const double eps = 1e-6;
  for (size_t i = 0; i < xs.size(); ++i) {
    ASSERT_TRUE(xs[i].grad().defined()) << what << ": input " << i << " got no gradient";
    ASSERT_EQ(xs[i].grad().sizes(), xs[i].sizes()) << what << ": input " << i;
    std::vector<double> analytic = xs[i].grad().to_vector<double>();
    Tensor host = xs[i].cpu();
    for (int64_t j = 0; j < xs[i].numel(); ++j) {
      double original = host.view({-1})[j].item<double>();
      auto set = [&](double value) {
        Tensor flat = host.view({-1});
        flat[j].fill_(value);
        if (!device.is_cpu()) xs[i].copy_(host);
      };
      set(original + eps);
      double up = loss();
      set(original - eps);
      double down = loss();
      set(original);
      double numeric = (up - down) / (2 * eps);
      EXPECT_NEAR(analytic[j], numeric, tol * (1 + std::abs(numeric)))
          << what << ": d/d input " << i << " element " << j << " on " << device;
    }
  }
}

}  // namespace ember::test
