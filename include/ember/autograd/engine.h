// The backward pass as a whole, for code that acts on gradients as they become final
// (DistributedDataParallel's gradient buckets): LibTorch's torch::autograd::Engine, as far as its
// end-of-pass callbacks, and PyTorch 2.x's post-accumulate-grad hooks on leaves.
#pragma once

#include <functional>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::autograd {

class EMBER_API Engine {
 public:
  static Engine& get_default_engine();
  // Runs `callback` once the backward pass running on this thread has finished, after every
  // gradient has been accumulated and the caller's streams wait for them; callbacks run in the
  // order they were queued, and one may queue another. Only a backward pass may queue one (a
  // hook or a custom function's backward); a pass that throws drops its callbacks.
  void queue_callback(std::function<void()> callback);

 private:
  Engine() = default;
};

// Calls `hook(leaf)` each time a backward pass has accumulated a gradient into leaf.grad()
// (PyTorch 2.x's Tensor.register_post_accumulate_grad_hook): the hook sees the finished .grad.
// `leaf` must be a leaf that requires grad. Returns a handle for
// remove_post_accumulate_grad_hook.
EMBER_API unsigned register_post_accumulate_grad_hook(const Tensor& leaf,
                                                      std::function<void(const Tensor&)> hook);
EMBER_API void remove_post_accumulate_grad_hook(const Tensor& leaf, unsigned handle);

}  // namespace ember::autograd
