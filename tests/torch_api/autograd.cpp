// Area 3f: the autograd methods on Tensor: requires_grad_, set_requires_grad, register_hook
// (both hook kinds, and remove_hook) and retain_grad.
#include "torch_api.h"

namespace {

void requiring_grad() {
  torch::Tensor x = torch::ones({2});
  SHOW(x.requires_grad());
  SHOW(x.requires_grad_().is_same(x));
  SHOW(x.requires_grad());
  x.requires_grad_(false);
  SHOW(x.requires_grad());
  SHOW(x.set_requires_grad(true).requires_grad());
  const torch::Tensor& c = x;
  c.requires_grad_(false);
  SHOW(x.requires_grad());
  c.set_requires_grad(true);
  SHOW(x.is_leaf());
  SHOW((x * 2).requires_grad());
  SHOW((x * 2).is_leaf());
  SHOW(x.detach().requires_grad());
  SHOW(torch::ones({2}, torch::kDouble).requires_grad_().requires_grad());
  {
    torch::NoGradGuard no_grad;
    SHOW((x * 2).requires_grad());
  }
}

void hooks() {
  const torch::Tensor w = torch::tensor({1.f, 2.f}, torch::requires_grad());
  const torch::Tensor y = w * 3;
  y.register_hook([](torch::Tensor grad) { return grad * 2; });
  y.sum().backward();
  SHOW(w.grad());

  torch::Tensor seen;
  const torch::Tensor v = torch::tensor({1.f, -1.f}, torch::requires_grad());
  const torch::Tensor z = v * v;
  z.register_hook([&seen](torch::Tensor grad) { seen = grad.clone(); });
  (z * torch::tensor({5.f, 7.f})).sum().backward();
  SHOW(seen);
  SHOW(v.grad());

  const torch::Tensor leaf = torch::tensor({2.f}, torch::requires_grad());
  leaf.register_hook([](torch::Tensor grad) { return grad + 1; });
  (leaf * 4).sum().backward();
  SHOW(leaf.grad());

  const torch::Tensor u = torch::tensor({1.f, 2.f}, torch::requires_grad());
  const torch::Tensor h = u * 2;
  const auto handle = h.register_hook([](torch::Tensor grad) { return grad * 100; });
  h.remove_hook(handle);
  h.sum().backward();
  SHOW(u.grad());
}

void retained_grads() {
  const torch::Tensor a = torch::tensor({1.f, 2.f}, torch::requires_grad());
  const torch::Tensor b = a * a;
  b.retain_grad();
  const torch::Tensor c = a + 1;
  (b.sum() * 2 + c.sum()).backward();
  SHOW(b.grad());
  SHOW(b.retains_grad());
  SHOW(c.retains_grad());
  SHOW(b.is_leaf());
  SHOW(a.grad());
  SHOW(a.retains_grad());
  (a * a).sum().backward();
  SHOW(a.grad());
  const torch::Tensor d = a.exp();
  d.retain_grad();
  d.backward(torch::tensor({1.f, 0.5f}));
  SHOW(d.grad());
  SHOW(a.grad());
}

}  // namespace

void autograd_methods() {
  torch_api::section("autograd methods");
  requiring_grad();
  hooks();
  retained_grads();
}
