// Area 2: a Tensor is a handle. Copies share the tensor, in-place methods work through const
// references, `x[i] = v` and `x[i] += v` write into x, and grad() hands out the gradient itself.
#include <utility>

#include "torch_api.h"

namespace {

void copies_share() {
  torch::Tensor x = torch::arange(6, torch::kFloat).view({2, 3});
  torch::Tensor y = x;
  y.add_(1);
  SHOW(x);
  SHOW(x.is_same(y));
  y = torch::zeros({1});  // an lvalue assignment rebinds y only
  SHOW(x);
  SHOW(y);
  SHOW(x.is_same(y));
  torch::Tensor moved = std::move(x);
  SHOW(moved);
  torch::Tensor undefined;
  SHOW(undefined.defined());
  SHOW(undefined);
  undefined = moved;
  SHOW(undefined.is_same(moved));
}

void in_place_through_const_references() {
  torch::Tensor x = torch::arange(4, torch::kFloat);
  const torch::Tensor& c = x;
  c.mul_(2);
  SHOW(x);
  SHOW(c.sub_(1).is_same(x));
  SHOW(x);
  c.add_(torch::ones({4}), 2).div_(2);
  SHOW(x);
  c.neg_().abs_().clamp_(0, 2);
  SHOW(x);
  c.copy_(torch::tensor({4.f, 3.f, 2.f, 1.f}));
  SHOW(x);
  c.fill_(7).masked_fill_(torch::tensor({true, false, true, false}), -1);
  SHOW(x);
  c.pow_(2).sqrt_().sub_(torch::ones({4}), 0.5);
  SHOW(x);
  c.zero_();
  SHOW(x);

  std::vector<torch::Tensor> params{torch::ones({2}), torch::full({3}, 5.0)};
  for (const auto& p : params) p.zero_();
  SHOW(params[0]);
  SHOW(params[1]);
  for (const auto& p : params) p.add_(torch::ones_like(p)).mul_(3);
  SHOW(params[1]);
  for (const torch::Tensor& p : params) p.index_fill_(0, torch::tensor({int64_t{0}}), -2);
  SHOW(params[0]);
  SHOW(params[1]);
}

void writes_through_subscripts() {
  torch::Tensor m = torch::zeros({2, 3});
  m[0] = 5;
  SHOW(m);
  m[1] = torch::tensor({1.f, 2.f, 3.f});
  SHOW(m);
  m[0] += 1;
  SHOW(m);
  m[1][2] = -1;
  SHOW(m);
  m[0][0] *= 10;
  SHOW(m);
  m[1] -= torch::ones({3});
  SHOW(m);
  m[0] /= 2;
  SHOW(m);
  m[0] = m[1];
  SHOW(m);
  m[1] = torch::full({1}, 4.0);  // broadcast into the row
  SHOW(m);
  m.index({1, 1}) = 9;
  SHOW(m);
  m.select(1, 0) = 8;
  SHOW(m);
  m.narrow(1, 1, 2) = 0;
  SHOW(m);
  m.view({-1})[5] = 100;
  SHOW(m);
  const torch::Tensor& cm = m;
  cm[0] = 2;
  SHOW(m);
  torch::Tensor row = m[1];
  row.fill_(3);
  SHOW(m);
  row = torch::ones({3});  // rebinds row, leaves m alone
  SHOW(m);
  SHOW(row);
  torch::Tensor ints = torch::zeros({3}, torch::kLong);
  ints[2] = 7;
  ints[0] += 2;
  ints[1] -= 4;
  SHOW(ints);
  torch::Tensor mask = torch::zeros({2}, torch::kBool);
  mask[1] = true;
  SHOW(mask);
}

void grad_handles() {
  const torch::Tensor w = torch::ones({2}, torch::requires_grad());
  SHOW(w.grad().defined());
  (w * 3).sum().backward();
  SHOW(w.grad());
  w.grad().zero_();
  SHOW(w.grad());
  (w * 2).sum().backward();
  SHOW(w.grad());
  torch::Tensor g = w.grad();
  g.add_(1);
  SHOW(w.grad());
  SHOW(g.is_same(w.grad()));
  w.mutable_grad() = torch::full({2}, 10.0);
  SHOW(w.grad());
  SHOW(g);
  w.mutable_grad().reset();
  SHOW(w.grad().defined());
  (w * w).sum().backward();
  SHOW(w.grad());
  const std::vector<torch::Tensor> params{w};
  {
    torch::NoGradGuard no_grad;
    for (const auto& p : params) p.sub_(p.grad(), 0.25);
  }
  SHOW(w);
  SHOW(w.requires_grad());
  for (const auto& p : params) p.grad().zero_();
  SHOW(w.grad());
  for (const auto& p : params) p.mutable_grad() = torch::Tensor();
  SHOW(w.grad().defined());
}

}  // namespace

void handle_semantics() {
  torch_api::section("handle semantics");
  copies_share();
  in_place_through_const_references();
  writes_through_subscripts();
  grad_handles();
}
