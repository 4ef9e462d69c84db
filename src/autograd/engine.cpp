// The backward engine: from the roots' gradients, runs every reachable node once its gradients
// have all arrived, latest-created first (PyTorch's order), on the device and stream its forward
// op ran on.
//
// Note [Backward streams]
// As in PyTorch, each node's backward runs on the stream that was current on its outputs' GPU
// when the forward op ran (TensorMeta::stream), with that GPU current, so a forward pass spread
// over streams is differentiated on the same streams. A gradient handed to a node on another
// stream (the root gradients included, made on the caller's stream) makes that stream wait for
// the work queued so far where the gradient was made, is recorded as in use by that stream, and
// is summed with the node's other incoming gradients on that stream, after all their producers;
// when the pass ends the caller's current stream on each GPU waits for the streams the leaves'
// gradients were accumulated on, so work queued after backward() sees them. CPU tensors carry
// no stream (the CPU's one stream is always complete) and skip all of this.
#include <atomic>
#include <functional>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "autograd/accumulate_grad.h"
#include "autograd/meta.h"
#include "autograd/node_internals.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/autograd/engine.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/stream.h"
#include "ember/warning.h"

namespace ember::autograd {
namespace {

struct Capture {  // autograd::grad(): the gradient arriving at (node, input_nr) is returned
  Node* node;
  uint32_t input_nr;
  Tensor grad;
};

struct ByPriority {
  bool operator()(const Node* a, const Node* b) const {
    return a->sequence_nr() < b->sequence_nr();
  }
};

// A gradient made to fit the tensor it is for: broadcast dimensions summed away, then the
// tensor's dtype and device (the engine's validate step in PyTorch).
Tensor conform(Tensor grad, const TensorMeta& meta, const Node& node, size_t index) {
  if (!grad.defined()) return grad;
  IntArrayRef shape(meta.shape.data(), meta.shape.size());
  if (grad.sizes() != shape) {
    bool expandable = grad.dim() >= static_cast<int64_t>(shape.size());
    for (size_t i = 0; expandable && i < shape.size(); ++i) {
      int64_t g =
          grad.size(grad.dim() - static_cast<int64_t>(shape.size()) + static_cast<int64_t>(i));
      expandable = shape[i] == g || shape[i] == 1;
    }
    EMBER_INTERNAL_ASSERT(expandable, "Function ", node.name().c_str(),
                          " returned an invalid gradient at index ", index);
    grad = sum_to(grad, shape);
  }
  if (grad.scalar_type() != meta.dtype || grad.device() != meta.device)
    grad = grad.to(meta.device, meta.dtype);
  return grad;
}

// Anomaly mode's check of one node's results: PyTorch's message, and what the forward op took.
void check_nan(Node& node, const std::vector<Tensor>& gradients) {
  for (size_t i = 0; i < gradients.size(); ++i) {
    const Tensor& g = gradients[i];
    if (!g.defined() || !g.is_floating_point() || !isnan(g).any().item<bool>()) continue;
    std::string operands;
    for (const TensorMeta& m : NodeInternals::input_meta(node))
      operands +=
          str(operands.empty() ? "" : ", ", m.dtype, IntArrayRef(m.shape), " on ", m.device);
    detail::fail<Error>("Function '", node.name(), "' returned nan values in its ", i,
                        "th output. Its forward op took ", operands,
                        "; look for a log, sqrt, division or pow there whose input reaches an "
                        "invalid value.");
  }
}

// The end-of-pass callbacks of the backward pass running on this thread (Engine::queue_callback);
// null outside one. A pass run from inside another (a hook's own backward) has its own.
thread_local std::vector<std::function<void()>>* final_callbacks = nullptr;

class GraphTask {
 public:
  GraphTask(bool keep_graph, bool create_graph, std::vector<Capture>* captures)
      : keep_graph_(keep_graph), create_graph_(create_graph), captures_(captures) {}

  void run(const std::vector<Edge>& roots, std::vector<Tensor>&& root_grads) {
    count_dependencies(roots);
    for (size_t i = 0; i < roots.size(); ++i) {
      Node* n = roots[i].function.get();
      hand_on(std::move(root_grads[i]), *n, buffer_for(n)[roots[i].input_nr]);
    }
    std::priority_queue<Node*, std::vector<Node*>, ByPriority> ready;
    std::unordered_set<Node*> started;  // a root may be given twice
    for (const Edge& e : roots)
      if (dependencies_[e.function.get()] == 0 && started.insert(e.function.get()).second)
        ready.push(e.function.get());

    // Formulas compute gradients, recorded only for a higher-order gradient (create_graph).
    AutoGradMode record_backward(create_graph_);
    std::vector<Stream> leaf_streams;
    while (!ready.empty()) {
      Node* node = ready.top();
      ready.pop();
      const std::optional<Stream> stream = node->stream();
      std::optional<StreamGuard> on_stream;  // the node's GPU and stream, current until handed on
      if (stream) {
        on_stream.emplace(*stream);
        if (node->is_accumulate_grad()) note_stream(leaf_streams, *stream);
      }
      std::vector<Tensor> inputs = std::move(buffer_for(node));
      std::vector<Tensor> outputs = call(*node, std::move(inputs));
      const std::vector<Edge>& edges = node->next_functions();
      for (size_t i = 0; i < edges.size(); ++i) {
        const Edge& edge = edges[i];
        if (!edge.is_valid()) continue;
        Node* next = edge.function.get();
        if (i < outputs.size())
          hand_on(conform(std::move(outputs[i]), NodeInternals::input_meta(*node)[i], *node, i),
                  *next, buffer_for(next)[edge.input_nr]);
        if (--dependencies_[next] == 0) ready.push(next);
      }
    }
    for (const Stream& leaf : leaf_streams) {
      const Stream caller = current_stream(leaf.device());
      if (caller != leaf) caller.wait_stream(leaf);
    }
  }

 private:
  void count_dependencies(const std::vector<Edge>& roots) {
    std::vector<Node*> stack;
    for (const Edge& e : roots)
      if (seen_.insert(e.function.get()).second) stack.push_back(e.function.get());
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (const Edge& e : n->next_functions()) {
        if (!e.is_valid()) continue;
        ++dependencies_[e.function.get()];
        if (seen_.insert(e.function.get()).second) stack.push_back(e.function.get());
      }
    }
  }

  // Adds `grad`, made on its device's current stream, into `slot`, an input of `next`
  // (Note [Backward streams]; PyTorch's InputBuffer::add).
  static void hand_on(Tensor&& grad, const Node& next, Tensor& slot) {
    if (!grad.defined()) return;
    std::optional<StreamGuard> on_consumer;
    if (grad.device().is_cuda())
      if (const std::optional<Stream> to = next.stream()) {
        const Stream from = current_stream(grad.device());
        if (from != *to) {
          to->wait_stream(from);
          grad.record_stream(*to);  // freed into from's pool, so kept until `to` is done with it
          on_consumer.emplace(*to);
        }
      }
    slot = slot.defined() ? slot + grad : std::move(grad);
  }

  static void note_stream(std::vector<Stream>& streams, const Stream& s) {
    for (const Stream& known : streams)
      if (known == s) return;
    streams.push_back(s);
  }

  std::vector<Tensor>& buffer_for(Node* n) {
    std::vector<Tensor>& b = buffers_[n];
    const size_t outputs = NodeInternals::output_meta(*n).size();
    if (b.size() < outputs) b.resize(outputs);
    return b;
  }

  std::vector<Tensor> call(Node& node, std::vector<Tensor>&& grads) {
    for (auto& [output_nr, hooks] : NodeInternals::pre_hooks(node)) {
      Tensor& grad = grads[output_nr];
      for (const auto& hook : *hooks) {
        if (!hook || !grad.defined()) continue;
        if (Tensor replaced = hook(grad); replaced.defined()) grad = std::move(replaced);
      }
    }
    if (captures_) {
      for (Capture& c : *captures_)
        if (c.node == &node && grads[c.input_nr].defined()) c.grad = grads[c.input_nr];
      if (node.is_accumulate_grad()) return {};  // grad() returns, it does not accumulate
    }
    for (auto& [output_nr, weak] : NodeInternals::retained(node))
      if (auto impl = weak.lock(); impl && grads[output_nr].defined())
        AccumulateGrad::accumulate(*impl, Tensor(grads[output_nr]));
    bool any = false;
    for (const Tensor& g : grads) any |= g.defined();
    if (!any) return {};  // nothing flows through: the inputs get no gradient from here
    for (size_t i = 0; i < grads.size(); ++i) {
      if (grads[i].defined() || !node.materializes_grads()) continue;
      // A multi-output op whose other outputs received gradients: this one's is zero.
      const TensorMeta& m = NodeInternals::output_meta(node)[i];
      grads[i] = zeros(IntArrayRef(m.shape.data(), m.shape.size()),
                       TensorOptions(m.dtype).device(m.device));
    }
    std::vector<Tensor> result = node.apply(std::move(grads));
    if (!keep_graph_) node.release_variables();
    if (AnomalyMode::is_enabled() && AnomalyMode::should_check_nan()) check_nan(node, result);
    return result;
  }

  bool keep_graph_;
  bool create_graph_;
  std::vector<Capture>* captures_;
  std::unordered_map<Node*, int> dependencies_;
  std::unordered_set<Node*> seen_;
  std::unordered_map<Node*, std::vector<Tensor>> buffers_;
};

// Runs `pass` (a backward pass, with its accumulations) with its own end-of-pass callbacks, then
// them; callbacks queued by a pass that throws are dropped.
template <class Pass>
void with_final_callbacks(Pass&& pass) {
  std::vector<std::function<void()>> callbacks;
  struct Scope {
    std::vector<std::function<void()>>* outer;
    ~Scope() { final_callbacks = outer; }
  } scope{std::exchange(final_callbacks, &callbacks)};
  pass();
  for (size_t i = 0; i < callbacks.size(); ++i) {  // indexed: a callback may queue another
    std::function<void()> callback = std::move(callbacks[i]);
    callback();
  }
}

// Root edges and their starting gradients, with PyTorch's checks and messages.
void prepare_roots(const char* op, const std::vector<Tensor>& tensors,
                   const std::vector<Tensor>& grad_tensors, std::vector<Edge>& edges,
                   std::vector<Tensor>& grads) {
  EMBER_CHECK_T(ValueError, grad_tensors.empty() || grad_tensors.size() == tensors.size(), "[", op,
                "] got ", tensors.size(), " tensors and ", grad_tensors.size(),
                " gradients; pass one gradient per tensor (or none for one-element tensors)");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK(t.defined(), "[", op, "] element ", i, " of tensors is undefined");
    EMBER_CHECK(t.requires_grad(), "[", op, "] element ", i,
                " of tensors does not require grad and does not have a grad_fn. Call "
                ".requires_grad_() on the leaves you want gradients for, and do not compute "
                "inside an ember::NoGradGuard.");
    Tensor g = grad_tensors.empty() ? Tensor() : grad_tensors[i];
    if (!g.defined()) {
      EMBER_CHECK(
          t.numel() == 1, "[", op,
          "] grad can be implicitly created only for scalar "
          "outputs; tensor ",
          i, " has shape ", t.sizes(),
          ". Pass a gradient of that shape (e.g. ones_like(t)), or reduce first (t.sum()).");
      g = ones_like(t);
    } else {
      EMBER_CHECK_T(ValueError, g.sizes() == t.sizes(), "[", op,
                    "] Mismatch in shape: grad_output[", i, "] has a shape of ", g.sizes(),
                    " and output[", i, "] has a shape of ", t.sizes(), ".");
      EMBER_CHECK_T(ValueError, g.device() == t.device(), "[", op, "] grad_output[", i, "] is on ",
                    g.device(), " but output[", i, "] is on ", t.device(),
                    "; move the gradient with .to(", t.device(), ")");
      if (g.scalar_type() != t.scalar_type()) g = g.to(t.scalar_type());
    }
    edges.push_back(gradient_edge(t));
    grads.push_back(std::move(g));
  }
}

}  // namespace

namespace {
// Runs the pass from `outputs` and returns the gradients arriving at `inputs` instead of
// accumulating them (undefined where none arrives).
std::vector<Tensor> gradients_at(const char* op, const std::vector<Tensor>& outputs,
                                 const std::vector<Tensor>& inputs,
                                 const std::vector<Tensor>& grad_outputs,
                                 std::optional<bool> retain_graph, bool create_graph) {
  std::vector<Edge> edges;
  std::vector<Tensor> grads;
  prepare_roots(op, outputs, grad_outputs, edges, grads);
  std::vector<Capture> captures;
  std::vector<Edge> input_edges;  // keeps new leaf accumulators alive during the pass
  for (size_t i = 0; i < inputs.size(); ++i) {
    EMBER_CHECK(inputs[i].defined() && inputs[i].requires_grad(), "[", op,
                "] One of the differentiated Tensors (input ", i, ") does not require grad");
    input_edges.push_back(gradient_edge(inputs[i]));
    captures.push_back(Capture{input_edges.back().function.get(), input_edges.back().input_nr, {}});
  }
  GraphTask(retain_graph.value_or(create_graph), create_graph, &captures)
      .run(edges, std::move(grads));
  std::vector<Tensor> result;
  result.reserve(captures.size());
  for (Capture& c : captures) result.push_back(std::move(c.grad));
  return result;
}
}  // namespace

// ---- anomaly mode
namespace {
std::atomic<bool> anomaly_enabled{false};
std::atomic<bool> anomaly_check_nan{true};
}  // namespace

bool AnomalyMode::is_enabled() { return anomaly_enabled.load(std::memory_order_relaxed); }
bool AnomalyMode::should_check_nan() { return anomaly_check_nan.load(std::memory_order_relaxed); }
void AnomalyMode::set_enabled(bool enabled, bool check_nan) {
  anomaly_enabled = enabled;
  anomaly_check_nan = check_nan;
}

DetectAnomalyGuard::DetectAnomalyGuard(bool check_nan)
    : prev_enabled_(AnomalyMode::is_enabled()), prev_check_nan_(AnomalyMode::should_check_nan()) {
  warn(Warning(UserWarning(), {"DetectAnomalyGuard", __FILE__, static_cast<uint32_t>(__LINE__)},
               "This mode should be enabled only for debugging as the different tests will slow "
               "down your program execution.",
               /*verbatim=*/false));
  AnomalyMode::set_enabled(true, check_nan);
}

DetectAnomalyGuard::~DetectAnomalyGuard() {
  AnomalyMode::set_enabled(prev_enabled_, prev_check_nan_);
}

// ---- Engine (autograd/engine.h)
Engine& Engine::get_default_engine() {
  static Engine engine;
  return engine;
}

void Engine::queue_callback(std::function<void()> callback) {
  EMBER_CHECK(final_callbacks != nullptr,
              "[queue_callback] Final callbacks can only be installed during backward pass: "
              "queue them from a hook or a custom function's backward");
  final_callbacks->push_back(std::move(callback));
}

void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors,
              std::optional<bool> retain_graph, bool create_graph,
              const std::vector<Tensor>& inputs) {
  with_final_callbacks([&] {
    if (!inputs.empty()) {
      std::vector<Tensor> grads =
          gradients_at("backward", tensors, inputs, grad_tensors, retain_graph, create_graph);
      AutoGradMode record_accumulation(create_graph);
      for (size_t i = 0; i < inputs.size(); ++i)
        AccumulateGrad::accumulate_into_leaf(detail::impl_ptr_of(inputs[i]), std::move(grads[i]));
      return;
    }
    std::vector<Edge> edges;
    std::vector<Tensor> grads;
    prepare_roots("backward", tensors, grad_tensors, edges, grads);
    GraphTask(retain_graph.value_or(create_graph), create_graph, nullptr)
        .run(edges, std::move(grads));
  });
}

std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs, std::optional<bool> retain_graph,
                         bool create_graph, bool allow_unused) {
  std::vector<Tensor> result;
  with_final_callbacks([&] {
    result = gradients_at("grad", outputs, inputs, grad_outputs, retain_graph, create_graph);
  });
  for (size_t i = 0; i < result.size(); ++i)
    EMBER_CHECK(result[i].defined() || allow_unused,
                "[grad] One of the differentiated Tensors (input ", i,
                ") appears to not have been used in the graph. Set allow_unused=true if this is "
                "the desired behavior.");
  return result;
}

}  // namespace ember::autograd
