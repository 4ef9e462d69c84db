// The backward graph's building blocks: grad mode, nodes and their edges, saved tensors, a
// leaf's AccumulateGrad, and the in-place rules.
#include <algorithm>
#include <atomic>
#include <limits>

#include "autograd/accumulate_grad.h"
#include "autograd/meta.h"
#include "autograd/node_internals.h"
#include "autograd/record.h"
#include "autograd/view_history.h"
#include "core/check.h"
#include "ember/ops.h"
#include "ember/reduce.h"

namespace ember {

namespace detail {
void AutogradMetaDeleter::operator()(autograd::AutogradMeta* meta) const { delete meta; }
}  // namespace detail

namespace autograd {

namespace detail_tls {
thread_local bool grad_enabled = true;
}

bool is_grad_enabled() { return detail_tls::grad_enabled; }
void set_grad_enabled(bool enabled) { detail_tls::grad_enabled = enabled; }
bool is_inference_mode_enabled() { return detail::tls_inference_mode; }
void set_inference_mode_enabled(bool enabled) { detail::tls_inference_mode = enabled; }

namespace {
constexpr const char* kInferenceClone =
    "You can make a clone to get a normal tensor before using it (x.clone() outside "
    "InferenceMode).";
}  // namespace

namespace {
std::atomic<uint64_t> next_sequence_nr{0};

TensorMeta meta_for(const Tensor& t) {
  return TensorMeta{std::vector<int64_t>(t.sizes().begin(), t.sizes().end()), t.scalar_type(),
                    t.device(), std::nullopt};
}

// A forward output's meta also keeps the stream its gradient's work goes to (Note [Backward
// streams]); the engine reads it from outputs only, so inputs skip the lookup.
TensorMeta output_meta_for(const Tensor& t) {
  TensorMeta m = meta_for(t);
  if (m.device.is_cuda()) m.stream = current_stream(m.device);
  return m;
}
}  // namespace

Node::Node() : sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}
Node::~Node() = default;

bool needs_grad_any(const std::vector<Tensor>& tensors) {
  for (const Tensor& t : tensors)
    if (needs_grad(t)) return true;
  return false;
}

AutogradMeta& meta_of(detail::TensorImpl& impl) {
  if (!impl.autograd) impl.autograd.reset(new AutogradMeta());
  return *impl.autograd;
}

// ---- AccumulateGrad
AccumulateGrad::AccumulateGrad(std::shared_ptr<detail::TensorImpl> variable) : variable_(variable) {
  sequence_nr_ = std::numeric_limits<uint64_t>::max();  // run as soon as ready, as PyTorch does
  NodeInternals::output_meta(*this).push_back(output_meta_for(Tensor(std::move(variable))));
}

Grads AccumulateGrad::apply(Grads&& grads) {
  if (std::shared_ptr<detail::TensorImpl> variable = variable_.lock())
    accumulate_into_leaf(variable, std::move(grads[0]));
  return {};
}

void AccumulateGrad::accumulate_into_leaf(const std::shared_ptr<detail::TensorImpl>& leaf,
                                          Tensor&& incoming) {
  if (!incoming.defined()) return;
  accumulate(*leaf, std::move(incoming));
  // Indexed: a hook may register another, which reallocates the list.
  const AutogradMeta& meta = *leaf->autograd;
  for (size_t i = 0; i < meta.post_accumulate_hooks.size(); ++i)
    if (std::function<void(const Tensor&)> hook = meta.post_accumulate_hooks[i]) hook(Tensor(leaf));
}

void AccumulateGrad::accumulate(detail::TensorImpl& impl, Tensor&& incoming) {
  if (!incoming.defined()) return;
  Tensor& grad = meta_of(impl).grad;
  if (detail_tls::grad_enabled) {
    // A create_graph pass: .grad keeps the history that makes it differentiable, and is never
    // changed in place (an earlier .grad may be part of a graph).
    grad = grad.defined() ? grad + incoming : incoming.clone();
  } else if (!grad.defined()) {
    // Steal the incoming gradient only when nothing else refers to it or its memory: the same
    // tensor often flows to several leaves (a + b sends one gradient to both).
    bool unique = detail::impl_ptr_of(incoming).use_count() == 1 &&
                  detail::impl_of(incoming)->storage.use_count() == 1 && incoming.is_contiguous();
    grad = unique ? std::move(incoming) : incoming.clone();
  } else {
    grad.add_(incoming);
  }
}

Edge gradient_edge(const Tensor& t) {
  if (!t.defined() || !detail::impl_of(t)->requires_grad) return Edge{};
  if (detail::impl_of(t)->view_base) refresh_view_history(t);
  AutogradMeta& meta = meta_of(*detail::impl_of(t));
  if (meta.grad_fn) return Edge{meta.grad_fn, meta.output_nr};
  std::shared_ptr<Node> accumulator = meta.grad_accumulator.lock();
  if (!accumulator) {
    accumulator = std::make_shared<AccumulateGrad>(detail::impl_ptr_of(t));
    meta.grad_accumulator = accumulator;
    if (meta.hooks) NodeInternals::attach_hooks(*accumulator, 0, meta.hooks);
  }
  return Edge{accumulator, 0};
}

// ---- saved tensors
namespace {
const Tensor& checked_not_inference(const Tensor& t) {
  EMBER_CHECK(!detail::impl_of(t)->is_inference,
              "[backward] Inference tensors cannot be saved for backward. ", kInferenceClone);
  return t;
}
}  // namespace

// Note [Saved tensors are aliases]
// A node keeps the values it saved, not the tensor handle, because a handle's history can come
// to point back at the node: an output's grad_fn is the node itself, and an in-place op can make
// a saved input the output of a graph that reaches the node (x.mul_(x); x.add_(x * 3)). Holding
// the handle would then make a cycle node -> x -> grad_fn -> ... -> node, which leaks. So a
// saved tensor is an alias (sharing the storage, and with it the version counter) plus the
// history the tensor had when saved: an input's edge, which the node's next edges hold anyway,
// or for an output just its number, the node being its grad_fn. A first-order formula runs
// without grad mode and reads the values only; a create_graph pass runs it under grad mode, and
// unpacking then rebuilds a tensor with that history, as PyTorch's SavedVariable does.
SavedTensor::SavedTensor(const Tensor& t, int32_t output_nr, Edge history)
    : data_(t.defined() ? checked_not_inference(t).detach() : t),
      history_(std::move(history)),
      version_(t.defined() ? detail::impl_of(t)->storage->version : 0),
      output_nr_(output_nr),
      requires_grad_(output_nr >= 0 || t.requires_grad()) {}  // outputs: before attach marks them

Tensor SavedTensor::unpack(Node& owner) const {
  if (!data_.defined()) return data_;
  uint32_t now = detail::impl_of(data_)->storage->version;
  EMBER_CHECK(now == version_,
              "[backward] one of the variables needed for gradient computation "
              "has been modified by an inplace operation: [",
              data_.scalar_type(), " ", data_.sizes(), "]",
              output_nr_ >= 0 ? str(", which is output ", output_nr_, " of ", owner.name(), ",")
                              : std::string(),
              " is at version ", now, "; expected version ", version_,
              " instead. Hint: the in-place op ran after ", owner.name(),
              " saved the tensor; use its out-of-place form (x = x + y instead of x += y) or "
              ".clone() the tensor before modifying it.");
  if (!requires_grad_ || !detail_tls::grad_enabled) return data_;
  Tensor with_history = data_.detach();
  detail::TensorImpl& impl = *detail::impl_of(with_history);
  AutogradMeta& meta = meta_of(impl);
  if (output_nr_ >= 0) {
    meta.grad_fn = owner.shared_from_this();
    meta.output_nr = static_cast<uint32_t>(output_nr_);
  } else {
    // A leaf's history is its AccumulateGrad node: gradients reach its .grad through it.
    meta.grad_fn = history_.function;
    meta.output_nr = history_.input_nr;
  }
  impl.requires_grad = meta.grad_fn != nullptr;
  return with_history;
}

// ---- function nodes
Grads FunctionNodeBase::apply(Grads&& grads) {
  EMBER_CHECK(!released_,
              "[backward] Trying to backward through the graph a second time (or "
              "directly access saved tensors after they have already been freed) in ",
              name(),
              ". Saved intermediate values of the graph are freed when you call backward() or "
              "autograd::grad(). Pass retain_graph=true to the first backward() if you need to "
              "backward through the graph a second time.");
  std::vector<Tensor> saved;
  saved.reserve(saved_.size());
  for (const SavedTensor& s : saved_) saved.push_back(s.unpack(*this));
  return run(Context(grads, saved, needs_mask_));
}

void FunctionNodeBase::release_variables() {
  // Nothing to free (AddBackward0, or MulBackward0 of x * 2 where only x requires grad): a
  // second backward is fine, as in PyTorch, whose error comes from unpacking a freed tensor.
  if (std::none_of(saved_.begin(), saved_.end(), [](const SavedTensor& s) { return s.defined(); }))
    return;
  saved_.clear();
  released_ = true;
}

namespace {
int32_t output_number(const Tensor& saved, const std::vector<Tensor>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i)
    if (saved.defined() && saved.is_same(outputs[i])) return static_cast<int32_t>(i);
  return -1;
}

// The gradient edge of a saved tensor that is not an output: the input's, when it is one.
Edge history(const Tensor& saved, const std::vector<Tensor>& inputs,
             const std::vector<Edge>& edges) {
  if (!saved.requires_grad()) return Edge{};
  for (size_t i = 0; i < inputs.size(); ++i)
    if (saved.is_same(inputs[i])) return edges[i];
  return gradient_edge(saved);
}
}  // namespace

void attach(const std::shared_ptr<FunctionNodeBase>& node, const std::vector<Tensor>& outputs,
            const std::vector<Tensor>& inputs, const std::vector<Tensor>& saved) {
  EMBER_INTERNAL_ASSERT(inputs.size() <= 64, "at most 64 differentiable inputs per op");
  std::vector<Edge>& edges = NodeInternals::next_edges(*node);
  std::vector<TensorMeta>& input_meta = NodeInternals::input_meta(*node);
  edges.reserve(inputs.size());
  input_meta.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    edges.push_back(gradient_edge(inputs[i]));
    input_meta.push_back(inputs[i].defined() ? meta_for(inputs[i]) : TensorMeta{});
    if (edges.back().is_valid()) node->needs_mask_ |= uint64_t{1} << i;
  }
  node->saved_.reserve(saved.size());
  for (const Tensor& s : saved)
    node->saved_.emplace_back(s, output_number(s, outputs), history(s, inputs, edges));
  std::vector<TensorMeta>& output_meta = NodeInternals::output_meta(*node);
  output_meta.reserve(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    output_meta.push_back(output_meta_for(outputs[i]));
    detail::TensorImpl& impl = *detail::impl_of(outputs[i]);
    AutogradMeta& meta = meta_of(impl);
    meta.grad_fn = node;
    meta.output_nr = static_cast<uint32_t>(i);
    impl.requires_grad = true;
  }
}

Tensor sum_to(const Tensor& grad, IntArrayRef shape) {
  if (grad.sizes() == shape) return grad;
  int64_t lead = grad.dim() - static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d)
    if (d < lead || (shape[d - lead] == 1 && grad.size(d) != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? grad : sum(grad, dims, /*keepdim=*/true);
  return r.view(shape);
}

// ---- in-place ops
bool check_inplace(const Tensor& self, const char* op, bool other_requires_grad) {
  detail::TensorImpl& impl = *detail::impl_of(self);
  EMBER_CHECK(!impl.is_inference || detail::tls_inference_mode, "[", op,
              "] Inplace update to inference tensor outside InferenceMode is not allowed. ",
              kInferenceClone);
  // A view takes part in autograd when its base does (Note [Views in autograd]).
  const bool base_requires_grad = impl.view_base && impl.view_base->requires_grad;
  if (!detail_tls::grad_enabled ||
      (!impl.requires_grad && !other_requires_grad && !base_requires_grad)) {
    ++impl.storage->version;
    return false;
  }
  if (impl.view_base) check_view_inplace(impl, op);
  AutogradMeta* meta = meta_if_any(impl);
  bool leaf = !meta || !meta->grad_fn;
  EMBER_CHECK(!(leaf && impl.requires_grad), "[", op,
              "] a leaf Variable that requires grad is "
              "being used in an in-place operation. Update parameters inside an "
              "ember::NoGradGuard scope (as optimizers do), or use the out-of-place form.");
  return true;  // the caller's write (a copy_) bumps the version
}

void rebase_history(const Tensor& self, const Tensor& result) {
  if (detail::impl_of(self)->view_base) {
    rebase_view_history(self, result);
    return;
  }
  AutogradMeta& from = meta_of(*detail::impl_of(result));
  AutogradMeta& to = meta_of(*detail::impl_of(self));
  to.grad_fn = from.grad_fn;
  to.output_nr = from.output_nr;
  detail::impl_of(self)->requires_grad = detail::impl_of(result)->requires_grad;
  // The node's output metadata stays valid: an in-place result has self's shape and dtype.
}

}  // namespace autograd
}  // namespace ember
