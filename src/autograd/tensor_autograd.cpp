// Tensor's autograd methods: grad(), backward(), retain_grad(), is_leaf(), grad_fn(), ..., and
// the post-accumulate-grad hooks of leaves (ember/autograd/engine.h).
#include "autograd/meta.h"
#include "autograd/node_internals.h"
#include "autograd/record.h"
#include "autograd/view_history.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/autograd.h"
#include "ember/autograd/engine.h"

namespace ember {
namespace {

// The tensor's autograd state (null when it has none), or the undefined-tensor error. A view's
// history is brought up to date first (Note [Views in autograd]).
autograd::AutogradMeta* meta_if_defined(const Tensor& t, const char* what) {
  const detail::TensorImpl& impl = detail::defined_impl(detail::impl_of(t), what);
  if (impl.view_base) autograd::refresh_view_history(t);
  return autograd::meta_if_any(impl);
}

}  // namespace

// False for an undefined tensor, as LibTorch: ops test optional operands (a bias) this way.
bool Tensor::requires_grad() const {
  return impl_ != nullptr && autograd::requires_grad_now(*this);
}

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  (void)detail::defined_impl(impl_.get(), "requires_grad_");
  EMBER_CHECK_T(TypeError, !requires_grad || is_floating_point(),
                "[requires_grad_] Only Tensors of floating point and complex dtype can require "
                "gradients (got ",
                scalar_type(), ")");
  EMBER_CHECK(!requires_grad || !impl_->is_inference || detail::tls_inference_mode,
              "[requires_grad_] Setting requires_grad=True on inference tensor outside "
              "InferenceMode is not allowed.");
  EMBER_CHECK(is_leaf() || requires_grad,
              "[requires_grad_] you can only change requires_grad "
              "flags of leaf variables. If you want to use a computed variable in a subgraph that "
              "doesn't require differentiation use var_no_grad = var.detach().");
  impl_->requires_grad = requires_grad;
  return *this;
}

const Tensor& Tensor::grad() const {
  static const Tensor undefined;
  autograd::AutogradMeta* meta = meta_if_defined(*this, "grad");
  return meta ? meta->grad : undefined;
}

Tensor& Tensor::mutable_grad() const {
  (void)detail::defined_impl(impl_.get(), "mutable_grad");
  return autograd::meta_of(*impl_).grad;
}

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph,
                      std::optional<TensorList> inputs) const {
  EMBER_CHECK(!inputs || !inputs->empty(),
              "[backward] 'inputs' argument to backward cannot be empty; leave it out to "
              "accumulate into every leaf");
  autograd::backward({*this},
                     gradient.defined() ? std::vector<Tensor>{gradient} : std::vector<Tensor>{},
                     retain_graph, create_graph, inputs ? inputs->vec() : std::vector<Tensor>{});
}

void Tensor::retain_grad() const {
  (void)detail::defined_impl(impl_.get(), "retain_grad");
  EMBER_CHECK(requires_grad(),
              "[retain_grad] can't retain_grad on Tensor that has "
              "requires_grad=False");
  autograd::AutogradMeta& meta = autograd::meta_of(*impl_);
  if (!meta.grad_fn || meta.retains_grad) return;  // leaves keep their grad anyway
  meta.retains_grad = true;
  autograd::NodeInternals::retained(*meta.grad_fn).emplace_back(meta.output_nr, impl_);
}

unsigned Tensor::add_hook(std::function<Tensor(const Tensor&)> hook) const {
  (void)detail::defined_impl(impl_.get(), "register_hook");
  EMBER_CHECK(requires_grad(),
              "[register_hook] cannot register a hook on a tensor that doesn't require gradient; "
              "call requires_grad_() on it first");
  autograd::AutogradMeta& meta = autograd::meta_of(*impl_);
  if (!meta.hooks) meta.hooks = std::make_shared<autograd::TensorHooks>();
  meta.hooks->push_back(std::move(hook));
  // The node the gradient arrives at runs the list: grad_fn, or a leaf's accumulator (which
  // gradient_edge attaches when it makes one later).
  if (meta.grad_fn) {
    autograd::NodeInternals::attach_hooks(*meta.grad_fn, meta.output_nr, meta.hooks);
  } else if (std::shared_ptr<autograd::Node> accumulator = meta.grad_accumulator.lock()) {
    autograd::NodeInternals::attach_hooks(*accumulator, 0, meta.hooks);
  }
  return static_cast<unsigned>(meta.hooks->size() - 1);
}

void Tensor::remove_hook(unsigned handle) const {
  autograd::AutogradMeta* meta = meta_if_defined(*this, "remove_hook");
  EMBER_CHECK_T(IndexError, meta && meta->hooks && handle < meta->hooks->size(),
                "[remove_hook] Invalid index, no hook at position ", handle,
                "; pass a handle register_hook returned for this tensor");
  (*meta->hooks)[handle] = nullptr;
}

namespace autograd {

unsigned register_post_accumulate_grad_hook(const Tensor& leaf,
                                            std::function<void(const Tensor&)> hook) {
  (void)detail::defined_impl(detail::impl_of(leaf), "register_post_accumulate_grad_hook");
  EMBER_CHECK(leaf.requires_grad(),
              "[register_post_accumulate_grad_hook] cannot register a hook on a tensor that "
              "doesn't require gradient; call requires_grad_() on it first");
  EMBER_CHECK(leaf.is_leaf(),
              "[register_post_accumulate_grad_hook] post accumulate grad hooks cannot be "
              "registered on non-leaf tensors; register_hook sees a non-leaf's gradient");
  std::vector<std::function<void(const Tensor&)>>& hooks =
      meta_of(*detail::impl_of(leaf)).post_accumulate_hooks;
  hooks.push_back(std::move(hook));
  return static_cast<unsigned>(hooks.size() - 1);
}

void remove_post_accumulate_grad_hook(const Tensor& leaf, unsigned handle) {
  AutogradMeta* meta = meta_if_defined(leaf, "remove_post_accumulate_grad_hook");
  EMBER_CHECK_T(IndexError, meta && handle < meta->post_accumulate_hooks.size(),
                "[remove_post_accumulate_grad_hook] Invalid index, no hook at position ", handle,
                "; pass a handle register_post_accumulate_grad_hook returned for this tensor");
  meta->post_accumulate_hooks[handle] = nullptr;
}

}  // namespace autograd

bool Tensor::retains_grad() const {
  autograd::AutogradMeta* meta = meta_if_defined(*this, "retains_grad");
  return meta && meta->retains_grad;
}

bool Tensor::is_view() const {
  return detail::defined_impl(impl_.get(), "is_view").view_base != nullptr;
}

Tensor Tensor::_base() const {
  EMBER_CHECK(is_view(), "[_base] Can't get base of non-view Tensor; test is_view() first");
  return Tensor(impl_->view_base);
}

bool Tensor::is_inference() const {
  return detail::defined_impl(impl_.get(), "is_inference").is_inference;
}

bool Tensor::is_leaf() const {
  autograd::AutogradMeta* meta = meta_if_defined(*this, "is_leaf");
  return !meta || !meta->grad_fn;
}

std::shared_ptr<autograd::Node> Tensor::grad_fn() const {
  autograd::AutogradMeta* meta = meta_if_defined(*this, "grad_fn");
  return meta ? meta->grad_fn : nullptr;
}

int64_t Tensor::output_nr() const {
  autograd::AutogradMeta* meta = meta_if_defined(*this, "output_nr");
  return meta ? meta->output_nr : 0;
}

uint32_t Tensor::version() const {
  return detail::defined_impl(impl_.get(), "version").storage->version;
}

void Tensor::set_data(const Tensor& new_data) const {
  EMBER_CHECK(defined() && new_data.defined(), "[set_data] both tensors must be defined");
  EMBER_CHECK_T(TypeError, !requires_grad() || new_data.is_floating_point(),
                "[set_data] a "
                "tensor that requires grad must keep a floating-point dtype (got ",
                new_data.scalar_type(), ")");
  const detail::TensorImpl& src = *detail::impl_of(new_data);
  impl_->storage = src.storage;
  impl_->offset = src.offset;
  impl_->dtype = src.dtype;
  impl_->view_base.reset();  // new data: no longer a view of what it viewed
  impl_->set_geometry(src.shape(), src.stride_ref());
}

}  // namespace ember
