// NodeInternals: a Node's graph fields, which the public header keeps private (users see
// next_functions(), name(), sequence_nr() and stream()), for the code that builds the graph
// (attach, AccumulateGrad, retain_grad) and the engine that runs it.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/tensor_impl.h"
#include "ember/autograd.h"

namespace ember::autograd {

class NodeInternals {
 public:
  // Where each input gradient goes next, one edge per forward input.
  static std::vector<Edge>& next_edges(Node& n) { return n.next_edges_; }
  // The forward inputs, one per next edge: the engine makes each gradient fit its input.
  static std::vector<TensorMeta>& input_meta(Node& n) { return n.input_meta_; }
  // The forward outputs: one gradient arrives per output.
  static std::vector<TensorMeta>& output_meta(Node& n) { return n.output_meta_; }
  // Non-leaf tensors that called retain_grad(): (output number, tensor).
  static std::vector<std::pair<uint32_t, std::weak_ptr<detail::TensorImpl>>>& retained(Node& n) {
    return n.retained_;
  }
  // The tensor hooks run on the gradients this node receives, before anything else sees them.
  static std::vector<std::pair<uint32_t, std::shared_ptr<TensorHooks>>>& pre_hooks(Node& n) {
    return n.pre_hooks_;
  }
  // Makes `node` run `hooks` on the gradient of its output `output_nr` (once per list).
  static void attach_hooks(Node& n, uint32_t output_nr, const std::shared_ptr<TensorHooks>& hooks) {
    for (const auto& [nr, attached] : n.pre_hooks_)
      if (attached == hooks) return;
    n.pre_hooks_.emplace_back(output_nr, hooks);
  }
};

}  // namespace ember::autograd
