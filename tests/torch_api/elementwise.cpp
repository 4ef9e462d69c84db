// Area 3c: elementwise methods: logical_*, equal, allclose, isclose, isnan, isinf, isfinite,
// clamp with one bound or two, clamp_min, clamp_max, and the in-place unary ops.
#include <cmath>

#include "torch_api.h"

namespace {

void logical_ops() {
  const torch::Tensor a = torch::tensor({true, true, false, false});
  const torch::Tensor b = torch::tensor({true, false, true, false});
  const torch::Tensor n = torch::tensor({0.f, 2.f, -1.f, 0.f});
  SHOW(a.logical_and(b));
  SHOW(a.logical_or(b));
  SHOW(a.logical_xor(b));
  SHOW(a.logical_not());
  SHOW(n.logical_and(torch::tensor({3, 0, 1, 0})));
  SHOW(n.logical_not());
  SHOW(torch::logical_or(n, b));
  SHOW(torch::logical_xor(a, n));
  torch::Tensor c = a.clone();
  c.logical_and_(b);
  SHOW(c);
  c.logical_or_(torch::tensor({false, false, false, true}));
  SHOW(c);
  c.logical_xor_(a);
  SHOW(c);
  c.logical_not_();
  SHOW(c);
  torch::Tensor f = n.clone();
  f.logical_not_();
  SHOW(f);
}

void comparisons() {
  const torch::Tensor x = torch::tensor({{1.f, 2.f}, {3.f, 4.f}});
  const torch::Tensor special = torch::tensor({1.f, NAN, INFINITY, -INFINITY, 0.f});
  SHOW(x.equal(x.clone()));
  SHOW(x.equal(x + 1));
  SHOW(x.equal(x.view({-1})));
  SHOW(torch::equal(x, x.contiguous()));
  SHOW(special.equal(special));
  SHOW(x.allclose(x + 1e-9));
  SHOW(x.allclose(x + 1e-3));
  SHOW(x.allclose(x * 1.001, 1e-2));
  SHOW(x.allclose(x + 0.5, 0, 1));
  SHOW(special.allclose(special));
  SHOW(special.allclose(special, 1e-5, 1e-8, true));
  SHOW(x.isclose(x + torch::tensor({1e-6f, 1e-3f})));
  SHOW(special.isclose(special));
  SHOW(special.isclose(special, 1e-5, 1e-8, true));
  SHOW(torch::isclose(x, torch::full({2, 2}, 2.f)));
  SHOW(special.isnan());
  SHOW(special.isinf());
  SHOW(special.isfinite());
  SHOW(torch::tensor({1, 2}).isnan());
  SHOW(torch::tensor({1, 2}).isfinite());
  SHOW(x.eq(2));
  SHOW(x.ge(torch::tensor({2.f, 2.f})));
  SHOW(x < 3);
  SHOW(2 < x);
  SHOW(x == x.t());
}

void clamps() {
  const torch::Tensor x = torch::tensor({-2.f, -0.5f, 0.5f, 3.f});
  SHOW(x.clamp(0));
  SHOW(x.clamp(-1, 1));
  SHOW(x.clamp(c10::nullopt, 1));
  SHOW(x.clamp(1, 0));
  SHOW(x.clamp_min(0.25));
  SHOW(x.clamp_max(-1));
  SHOW(x.clamp_min(torch::tensor({0.f, 0.f, 1.f, 1.f})));
  SHOW(x.clamp_max(torch::zeros({1})));
  SHOW(x.clamp(torch::full({4}, -1.f), torch::tensor({0.f, 0.f, 0.f, 2.f})));
  SHOW(x.clamp(torch::tensor({0.f, 0.f, 1.f, 1.f})));
  SHOW(torch::clamp(x, -1));
  SHOW(torch::clamp_min(x, 0));
  SHOW(torch::clamp_max(x, 0));
  SHOW(torch::tensor({-5, 0, 5}).clamp(-2, 2));
  SHOW(torch::tensor({-5, 0, 5}).clamp_max(1));
  SHOW(torch::tensor({NAN, 2.f}).clamp(0, 1));
  torch::Tensor y = x.clone();
  y.clamp_(-1);
  SHOW(y);
  y.clamp_(c10::nullopt, 2);
  SHOW(y);
  y.clamp_min_(0);
  SHOW(y);
  y.clamp_max_(0.75);
  SHOW(y);
  y.clamp_(torch::full({4}, 0.5f), torch::full({4}, 0.6f));
  SHOW(y);
}

void unary_in_place() {
  const torch::Tensor base = torch::tensor({-1.5f, -0.25f, 0.5f, 2.f});
  SHOW(base.clone().relu_());
  SHOW(base.clone().exp_());
  SHOW(base.clone().sigmoid_());
  SHOW(base.clone().tanh_());
  SHOW(base.clone().abs_());
  SHOW(base.clone().neg_());
  SHOW(base.clone().sin_());
  SHOW(base.clone().cos_());
  SHOW(base.clone().floor_());
  SHOW(base.clone().ceil_());
  SHOW(base.clone().round_());
  SHOW(base.clone().trunc_());
  SHOW(base.clone().frac_());
  SHOW(base.clone().sign_());
  SHOW(base.clone().reciprocal_());
  SHOW(base.clone().square_());
  SHOW(base.clone().erf_());
  SHOW(base.clone().log1p_());
  SHOW(base.abs().sqrt_());
  SHOW(base.abs().rsqrt_());
  SHOW(base.abs().log_());
  SHOW(base.clone().pow_(2));
  SHOW(base.clone().mul_(2).add_(1).div_(4).sub_(0.5));
  torch::Tensor y = base.clone();
  SHOW(y.exp_().is_same(y));
  torch::relu_(y.neg_());
  SHOW(y);
  torch::sigmoid_(y);
  SHOW(y);
  torch::exp_(y);
  SHOW(y);
  torch::Tensor ints = torch::tensor({-3, 4});
  ints.abs_();
  SHOW(ints);
  ints.neg_();
  SHOW(ints);
  ints.relu_();
  SHOW(ints);
  SHOW(torch::tensor({0.5f, 1.5f, 2.5f, -0.5f, -2.5f}).round());
}

}  // namespace

void elementwise() {
  torch_api::section("logical, comparisons, clamp, in-place unary");
  logical_ops();
  comparisons();
  clamps();
  unary_in_place();
}
