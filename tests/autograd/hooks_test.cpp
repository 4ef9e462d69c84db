// Tensor::register_hook and remove_hook: hooks see the gradient before it is used and may
// replace it, on non-leaf tensors (at their grad_fn) and on leaves (before accumulation).
// Expected values: hand-computed, as PyTorch gives them.
#include <gtest/gtest.h>

#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

TEST(TensorHooks, AHookReturningATensorReplacesTheGradient) {
  for (Device device : test::all_devices()) {
    Tensor w = tensor({1.f, 2.f}, TensorOptions().device(device).requires_grad(true));
    Tensor y = w * 3;
    y.register_hook([](Tensor grad) { return grad * 2; });
    y.sum().backward();
    test::expect_close(w.grad(), {2}, {6, 6});  // d(sum)/dy = 1, doubled, times 3
  }
}

TEST(TensorHooks, AVoidHookSeesTheGradientUnchanged) {
  Tensor seen;
  Tensor v = tensor({1.f, -1.f}, TensorOptions().requires_grad(true));
  Tensor z = v * v;
  z.register_hook([&seen](const Tensor& grad) { seen = grad.clone(); });
  (z * tensor({5.f, 7.f})).sum().backward();
  test::expect_close(seen, {2}, {5, 7});
  test::expect_close(v.grad(), {2}, {10, -14});  // 2 v * (5, 7)
}

TEST(TensorHooks, LeafHooksRunBeforeAccumulation) {
  Tensor leaf = tensor({2.f}, TensorOptions().requires_grad(true));
  leaf.register_hook([](Tensor grad) { return grad + 1; });
  (leaf * 4).sum().backward();
  test::expect_close(leaf.grad(), {1}, {5});
  (leaf * 4).sum().backward();  // the hook stays registered
  test::expect_close(leaf.grad(), {1}, {10});
}

TEST(TensorHooks, HooksRunInOrderAndRemovedOnesDoNot) {
  Tensor u = tensor({1.f, 2.f}, TensorOptions().requires_grad(true));
  Tensor h = u * 2;
  const unsigned first = h.register_hook([](Tensor grad) { return grad * 100; });
  h.register_hook([](Tensor grad) { return grad + 1; });
  EXPECT_EQ(first, 0u);
  h.remove_hook(first);
  h.sum().backward();
  test::expect_close(u.grad(), {2}, {4, 4});  // (1 + 1) * 2
  EXPECT_THROW(h.remove_hook(7), IndexError);
}

TEST(TensorHooks, RefusedOnATensorThatDoesNotRequireGrad) {
  try {
    ones({2}).register_hook([](Tensor grad) { return grad; });
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("doesn't require gradient"), std::string::npos);
  }
}

}  // namespace
}  // namespace ember
