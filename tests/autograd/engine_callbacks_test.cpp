// The backward pass as a whole (ember/autograd/engine.h): post-accumulate-grad hooks on leaves
// and the callbacks queued to run when a pass ends, which DistributedDataParallel builds on.
// Expected values: hand-computed, as PyTorch 2.x gives them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ember/autograd/engine.h"
#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

TEST(PostAccumulateGradHooks, SeeTheAccumulatedGradOfEachPass) {
  Tensor w = tensor({1.f, 2.f}, TensorOptions().requires_grad(true));
  std::vector<std::vector<float>> seen;
  autograd::register_post_accumulate_grad_hook(
      w, [&seen](const Tensor& leaf) { seen.push_back(leaf.grad().to_vector<float>()); });
  (w * 3).sum().backward();
  (w * w).sum().backward();  // accumulates 2w = (2, 4) onto (3, 3)
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], (std::vector<float>{3, 3}));
  EXPECT_EQ(seen[1], (std::vector<float>{5, 7}));
}

TEST(PostAccumulateGradHooks, RunOnceForALeafUsedTwiceAndThroughBackwardInputs) {
  Tensor w = tensor({2.f}, TensorOptions().requires_grad(true));
  int calls = 0;
  autograd::register_post_accumulate_grad_hook(w, [&calls](const Tensor&) { ++calls; });
  (w * w + w).sum().backward();  // both uses summed first: one accumulation
  EXPECT_EQ(calls, 1);
  test::expect_close(w.grad(), {1}, {5});
  (w * 4).backward(Tensor(), std::nullopt, false, TensorList{w});
  EXPECT_EQ(calls, 2);
  test::expect_close(w.grad(), {1}, {9});
}

TEST(PostAccumulateGradHooks, RemovedOnesStopAndOthersKeepTheirHandles) {
  Tensor w = tensor({1.f}, TensorOptions().requires_grad(true));
  std::string order;
  const unsigned first =
      autograd::register_post_accumulate_grad_hook(w, [&order](const Tensor&) { order += 'a'; });
  const unsigned second =
      autograd::register_post_accumulate_grad_hook(w, [&order](const Tensor&) { order += 'b'; });
  (w * 2).sum().backward();
  autograd::remove_post_accumulate_grad_hook(w, first);
  (w * 2).sum().backward();
  EXPECT_EQ(order, "abb");
  EXPECT_EQ(second, 1u);
  EXPECT_EQ(test::error_of([&] { autograd::remove_post_accumulate_grad_hook(w, 7); }),
            "[remove_post_accumulate_grad_hook] Invalid index, no hook at position 7; pass a "
            "handle register_post_accumulate_grad_hook returned for this tensor");
}

TEST(PostAccumulateGradHooks, RefusedOnNonLeavesAndTensorsWithoutGrad) {
  Tensor w = tensor({1.f}, TensorOptions().requires_grad(true));
  EXPECT_EQ(test::error_of(
                [&] { autograd::register_post_accumulate_grad_hook(w * 2, [](const Tensor&) {}); }),
            "[register_post_accumulate_grad_hook] post accumulate grad hooks cannot be "
            "registered on non-leaf tensors; register_hook sees a non-leaf's gradient");
  EXPECT_EQ(test::error_of([&] {
              autograd::register_post_accumulate_grad_hook(tensor({1.f}), [](const Tensor&) {});
            }),
            "[register_post_accumulate_grad_hook] cannot register a hook on a tensor that "
            "doesn't require gradient; call requires_grad_() on it first");
}

TEST(EngineCallbacks, RunAfterEveryGradientInQueueOrderAndMayQueueMore) {
  Tensor a = tensor({1.f}, TensorOptions().requires_grad(true));
  Tensor b = tensor({2.f}, TensorOptions().requires_grad(true));
  std::vector<std::string> events;
  autograd::Engine& engine = autograd::Engine::get_default_engine();
  autograd::register_post_accumulate_grad_hook(a, [&](const Tensor&) {
    events.push_back("a");
    engine.queue_callback([&] {
      // Both leaves' gradients are final by now.
      events.push_back("first " + std::to_string(a.grad().item<float>()).substr(0, 3) + " " +
                       std::to_string(b.grad().item<float>()).substr(0, 3));
      engine.queue_callback([&] { events.push_back("queued by the first"); });
    });
    engine.queue_callback([&] { events.push_back("second"); });
  });
  (a * b * 3).sum().backward();
  EXPECT_EQ(events,
            (std::vector<std::string>{"a", "first 6.0 3.0", "second", "queued by the first"}));
  events.clear();
  (b * 2).sum().backward();  // a pass that does not reach `a` queues nothing
  EXPECT_TRUE(events.empty());
}

TEST(EngineCallbacks, AutogradGradRunsThemToo) {
  Tensor x = tensor({3.f}, TensorOptions().requires_grad(true));
  bool ran = false;
  Tensor y = x * x;
  y.register_hook([&ran](const Tensor&) {
    autograd::Engine::get_default_engine().queue_callback([&ran] { ran = true; });
  });
  std::vector<Tensor> g = autograd::grad({y}, {x});
  EXPECT_TRUE(ran);
  test::expect_close(g[0], {1}, {6});
}

TEST(EngineCallbacks, RefusedOutsideABackwardPass) {
  EXPECT_EQ(test::error_of([] { autograd::Engine::get_default_engine().queue_callback([] {}); }),
            "[queue_callback] Final callbacks can only be installed during backward pass: queue "
            "them from a hook or a custom function's backward");
}

TEST(EngineCallbacks, AnErrorInTheirPassDropsThem) {
  Tensor x = tensor({1.f}, TensorOptions().requires_grad(true));
  bool ran = false;
  Tensor y = x * 2;
  y.register_hook([&ran](const Tensor&) -> Tensor {
    autograd::Engine::get_default_engine().queue_callback([&ran] { ran = true; });
    throw ValueError("[hook] failed on purpose");
  });
  EXPECT_EQ(test::error_of([&] { y.sum().backward(); }), "[hook] failed on purpose");
  EXPECT_FALSE(ran);
  (x * 2).sum().backward();  // the next pass starts clean
  EXPECT_FALSE(ran);
  test::expect_close(x.grad(), {1}, {2});
}

}  // namespace
}  // namespace ember
