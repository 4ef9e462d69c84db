// Autograd: grad mode and its guards, the graph's nodes as users see them (grad_fn()), and
// backward()/grad() over several tensors. Tensor's own autograd methods are in tensor.h.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/device.h"
#include "ember/dtype.h"
#include "ember/macros.h"
#include "ember/stream.h"
#include "ember/tensor.h"

namespace ember::autograd {

class Node;

// An edge of the backward graph: the gradient flows into input `input_nr` of `function`.
struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool is_valid() const { return function != nullptr; }
};

// What the engine needs to know of a forward tensor to check (and reduce) its gradient, and
// where its gradient's work goes (Note [Backward streams] in src/autograd/engine.cpp).
struct TensorMeta {
  std::vector<int64_t> shape;
  ScalarType dtype = kFloat32;
  Device device;
  // Of a forward output: the stream current on its GPU when the op ran; none on the CPU.
  std::optional<Stream> stream;
};

// A node of the backward graph: the backward function of one forward op. Its name is PyTorch's
// (AddBackward0, MmBackward0, AccumulateGrad, ...), so tensors print grad_fn=<...> as in PyTorch.
// The hooks registered on one tensor (Tensor::register_hook), in order; a removed hook stays as
// an empty function, so that handles keep their positions.
using TensorHooks = std::vector<std::function<Tensor(const Tensor&)>>;

// Nodes are shared (edges and tensors hold them); a saved output of a node unpacks for a
// double backward with the node itself as its grad_fn (shared_from_this).
class EMBER_API Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node();

  virtual std::string name() const = 0;
  // Where each input gradient goes next (PyTorch's next_functions).
  const std::vector<Edge>& next_functions() const { return next_edges_; }
  // Creation order: the engine runs later nodes first.
  uint64_t sequence_nr() const { return sequence_nr_; }
  // The stream its backward runs on: the one current on its outputs' GPU when the forward op
  // ran (one op's outputs share a device); none on the CPU (Note [Backward streams] in
  // src/autograd/engine.cpp).
  std::optional<Stream> stream() const {
    return output_meta_.empty() ? std::nullopt : output_meta_[0].stream;
  }

  // ---- used by the engine
  // Gradients of the forward outputs -> gradients of the forward inputs (one per next edge).
  virtual std::vector<Tensor> apply(std::vector<Tensor>&& grads) = 0;
  // Frees the saved tensors once a backward pass without retain_graph has gone through.
  virtual void release_variables() {}
  virtual bool is_accumulate_grad() const { return false; }
  // Whether a missing gradient of one output, where others arrived, reaches apply as zeros
  // (every built-in node) or undefined (a custom function's set_materialize_grads(false)).
  virtual bool materializes_grads() const { return true; }

 protected:
  uint64_t sequence_nr_;

 private:
  friend class NodeInternals;  // the engine's and the recording code's access (src/autograd/)
  std::vector<Edge> next_edges_;
  std::vector<TensorMeta> input_meta_;   // the forward inputs, one per next edge
  std::vector<TensorMeta> output_meta_;  // the forward outputs (gradients this node receives)
  // Non-leaf tensors that called retain_grad(): (output number, tensor).
  std::vector<std::pair<uint32_t, std::weak_ptr<detail::TensorImpl>>> retained_;
  // Hooks of the tensors whose gradients arrive here: (output number, that tensor's hooks).
  std::vector<std::pair<uint32_t, std::shared_ptr<TensorHooks>>> pre_hooks_;
};

// Grad mode is per thread and on by default; ops record the graph only while it is on.
EMBER_API bool is_grad_enabled();
EMBER_API void set_grad_enabled(bool enabled);

// LibTorch's names for it (c10::GradMode).
struct GradMode {
  static bool is_enabled() { return is_grad_enabled(); }
  static void set_enabled(bool enabled) { set_grad_enabled(enabled); }
};

// Sets grad mode for a scope and restores the previous one (c10::AutoGradMode).
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : prev_mode(is_grad_enabled()) { set_grad_enabled(enabled); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;
  ~AutoGradMode() { set_grad_enabled(prev_mode); }

  const bool prev_mode;
};

// InferenceMode (c10::InferenceMode): grad mode off, and every tensor made meanwhile is an
// inference tensor (Tensor::is_inference()), which autograd refuses later, as PyTorch does: it
// cannot be saved for a backward, modified in place or made to require grad outside the mode.
// InferenceMode(false) turns grad mode back on inside one.
EMBER_API bool is_inference_mode_enabled();
EMBER_API void set_inference_mode_enabled(bool enabled);

class InferenceMode {
 public:
  explicit InferenceMode(bool enabled = true)
      : prev_grad_(is_grad_enabled()), prev_inference_(is_inference_mode_enabled()) {
    set_grad_enabled(!enabled);
    set_inference_mode_enabled(enabled);
  }
  InferenceMode(const InferenceMode&) = delete;
  InferenceMode& operator=(const InferenceMode&) = delete;
  ~InferenceMode() {
    set_grad_enabled(prev_grad_);
    set_inference_mode_enabled(prev_inference_);
  }
  static bool is_enabled() { return is_inference_mode_enabled(); }

 private:
  bool prev_grad_;
  bool prev_inference_;
};

// Turns recording off for a scope (torch.no_grad()): inference, optimizer updates.
struct NoGradGuard : AutoGradMode {
  NoGradGuard() : AutoGradMode(false) {}
};

// Turns recording back on inside a no-grad scope (torch.enable_grad()).
struct EnableGradGuard : AutoGradMode {
  EnableGradGuard() : AutoGradMode(true) {}
};

// Anomaly detection (torch::autograd::AnomalyMode), for the whole process: while enabled (and
// check_nan), every gradient a backward formula returns is checked, and the first NaN throws an
// error naming the node, the output and the forward op's operands. Slow: for debugging.
struct EMBER_API AnomalyMode {
  static bool is_enabled();
  static bool should_check_nan();
  static void set_enabled(bool enabled, bool check_nan = true);
};

// Enables anomaly mode for a scope (torch::autograd::DetectAnomalyGuard), warning that it
// slows the program down, and restores the previous state.
class EMBER_API DetectAnomalyGuard {
 public:
  explicit DetectAnomalyGuard(bool check_nan = true);
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;
  ~DetectAnomalyGuard();

 private:
  bool prev_enabled_;
  bool prev_check_nan_;
};

// Accumulates d(sum of tensors[i] * grad_tensors[i]) into the .grad of every leaf that requires
// grad (torch::autograd::backward). grad_tensors may be empty for one-element tensors.
// retain_graph defaults to create_graph: without it the saved tensors are freed as the pass
// goes. create_graph records the backward pass itself, so that the gradients have a grad_fn
// and can be differentiated again. Given `inputs`, only their .grad accumulates.
EMBER_API void backward(const std::vector<Tensor>& tensors,
                        const std::vector<Tensor>& grad_tensors = {},
                        std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                        const std::vector<Tensor>& inputs = {});

// The gradients of outputs with respect to inputs, returned instead of accumulated into .grad
// (torch::autograd::grad). An input that outputs do not depend on is an error unless
// allow_unused, in which case its gradient is an undefined Tensor.
EMBER_API std::vector<Tensor> grad(const std::vector<Tensor>& outputs,
                                   const std::vector<Tensor>& inputs,
                                   const std::vector<Tensor>& grad_outputs = {},
                                   std::optional<bool> retain_graph = std::nullopt,
                                   bool create_graph = false, bool allow_unused = false);

}  // namespace ember::autograd

namespace ember {
using autograd::AutoGradMode;
using autograd::EnableGradGuard;
using autograd::GradMode;
using autograd::InferenceMode;
using autograd::NoGradGuard;
}  // namespace ember
