// AutogradMeta: the gradient state of a tensor that takes part in autograd (its grad, the node
// that made it, the accumulator of a leaf). Plain tensors have none.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/tensor_impl.h"
#include "ember/autograd.h"
#include "ember/tensor.h"

namespace ember::autograd {

struct AutogradMeta {
  Tensor grad;                           // accumulated by backward (leaves, retain_grad)
  std::shared_ptr<Node> grad_fn;         // null for leaves
  std::weak_ptr<Node> grad_accumulator;  // a leaf's AccumulateGrad, while a graph uses it
  uint32_t output_nr = 0;                // which output of grad_fn this tensor is
  bool retains_grad = false;
  // register_hook()'s hooks; the node the gradient arrives at (grad_fn, or a leaf's
  // AccumulateGrad) shares the list.
  std::shared_ptr<TensorHooks> hooks;
  // A leaf's register_post_accumulate_grad_hook()s, run by its AccumulateGrad after each
  // accumulation; a removed one stays as an empty function, so that handles keep positions.
  std::vector<std::function<void(const Tensor&)>> post_accumulate_hooks;
};

// The tensor's AutogradMeta, created on first use.
AutogradMeta& meta_of(detail::TensorImpl& impl);
inline AutogradMeta* meta_if_any(const detail::TensorImpl& impl) { return impl.autograd.get(); }

// The edge a gradient for `t` travels along: its grad_fn, or its leaf accumulator (created on
// demand), or an invalid edge when t does not require grad.
Edge gradient_edge(const Tensor& t);

}  // namespace ember::autograd
