// gradcheck: compares autograd's gradients with central finite differences in float64.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace ember::test {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

// With EMBER_GRADCHECK_NODES=<file>, every gradcheck appends the names of the nodes in its
// graph to the file: the autograd.gradcheck_coverage test (gradcheck_coverage.cmake) checks that
// every node ember can record is among them, so that no formula escapes both orders of checks.
inline void log_checked_nodes(const Tensor& out) {
  const char* path = std::getenv("EMBER_GRADCHECK_NODES");
  if (path == nullptr || !out.grad_fn()) return;
  std::ofstream log(path, std::ios::app);
  std::set<const autograd::Node*> seen;
  std::vector<const autograd::Node*> stack{out.grad_fn().get()};
  while (!stack.empty()) {
    const autograd::Node* node = stack.back();
    stack.pop_back();
    if (!seen.insert(node).second) continue;
    log << node->name() << "\n";
    for (const autograd::Edge& e : node->next_functions())
      if (e.is_valid()) stack.push_back(e.function.get());
  }
}

// For a random projection v of f's output, d<v, f(x)>/dx from backward() must match
// (L(x + eps e_j) - L(x - eps e_j)) / 2 eps for every element j of every input.
// An input that gets no gradient fails, unless allow_unused: its gradient is then zero.
inline void first_order_check(const std::string& what, const Fn& f,
                              const std::vector<Tensor>& inputs, Device device, double tol,
                              bool allow_unused) {
  std::vector<Tensor> xs;
  for (const Tensor& x : inputs)
    xs.push_back(x.detach().to(kFloat64).to(device).clone().requires_grad_());
  Tensor out = f(xs);
  ASSERT_TRUE(out.requires_grad()) << what << ": output does not require grad";
  log_checked_nodes(out);
  manual_seed(1234);
  Tensor v = randn(out.sizes(), TensorOptions(kFloat64).device(device));
  (out * v).sum().backward();

  NoGradGuard no_grad;
  auto loss = [&] { return (f(xs) * v).sum().item<double>(); };
  const double eps = 1e-6;
  for (size_t i = 0; i < xs.size(); ++i) {
    ASSERT_TRUE(xs[i].grad().defined() || allow_unused)
        << what << ": input " << i << " got no gradient";
    Tensor grad = xs[i].grad().defined() ? xs[i].grad() : zeros_like(xs[i]);
    ASSERT_EQ(grad.sizes(), xs[i].sizes()) << what << ": input " << i;
    std::vector<double> analytic = grad.to_vector<double>();
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

// The second derivatives, as PyTorch's gradgradcheck: the first derivative
//   h(x..., v) = d<v, f(x...)>/dx...   (autograd::grad with create_graph)
// is itself a function of the inputs and of the output gradient v, and gradcheck compares
// autograd's gradient of h (a backward through the recorded backward pass) with finite
// differences of h. An op whose gradient does not depend on x or v (sign, floor) has h = 0.
inline void gradgradcheck(const std::string& what, const Fn& f, const std::vector<Tensor>& inputs,
                          Device device, double tol) {
  const size_t n = inputs.size();
  Tensor out;
  {
    std::vector<Tensor> xs;
    for (const Tensor& x : inputs) xs.push_back(x.to(kFloat64).to(device));
    NoGradGuard no_grad;
    out = f(xs);
  }
  manual_seed(4321);
  std::vector<Tensor> with_v = inputs;
  with_v.push_back(randn(out.sizes(), kFloat64));
  Fn first_derivative = [&](const std::vector<Tensor>& xv) {
    EnableGradGuard record;  // gradcheck evaluates its finite differences without grad mode
    std::vector<Tensor> xs(xv.begin(), xv.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<Tensor> grads = autograd::grad({f(xs)}, xs, {xv[n]}, true, /*create_graph=*/true,
                                               /*allow_unused=*/true);
    std::vector<Tensor> flat;
    for (size_t i = 0; i < n; ++i)
      flat.push_back(grads[i].defined() ? grads[i].reshape({-1})
                                        : zeros({xs[i].numel()}, xs[i].options()));
    return cat(flat);
  };
  {
    std::vector<Tensor> xv;
    for (const Tensor& t : with_v)
      xv.push_back(t.detach().to(kFloat64).to(device).clone().requires_grad_());
    Tensor h = first_derivative(xv);
    if (!h.requires_grad()) {  // a gradient that is constant zero
      EXPECT_EQ(h.abs().sum().item<double>(), 0.0) << what << ": constant nonzero gradient";
      return;
    }
  }
  first_order_check(what + " (second order)", first_derivative, with_v, device, tol,
                    /*allow_unused=*/true);
}

// Both orders: every backward formula is built from differentiable ops, so each op that has a
// gradient also has a second derivative, and every gradcheck checks it.
inline void gradcheck(const std::string& what, const Fn& f, const std::vector<Tensor>& inputs,
                      Device device = Device::cpu(), double tol = 1e-6) {
  first_order_check(what, f, inputs, device, tol, /*allow_unused=*/false);
  gradgradcheck(what, f, inputs, device, std::max(tol, 1e-5));
}

}  // namespace ember::test
