// Custom autograd functions (ember/custom_function.h): the node that runs a user's backward,
// its context, and how forward's outputs join the graph (PyTorch's CppNode and _wrap_outputs).
#include "ember/custom_function.h"

#include <algorithm>

#include "autograd/meta.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/demangle.h"
#include "core/tensor_impl.h"

namespace ember::autograd {

namespace {

bool contains(const std::vector<const void*>& impls, const Tensor& t) {
  return t.defined() && std::find(impls.begin(), impls.end(), detail::impl_of(t)) != impls.end();
}

std::vector<const void*> impls_of(const variable_list& tensors) {
  std::vector<const void*> impls;
  for (const Tensor& t : tensors)
    if (t.defined()) impls.push_back(detail::impl_of(t));
  return impls;
}

}  // namespace

// The graph node of one custom function call: its backward is the user's T::backward.
class CustomFunctionNode final : public FunctionNodeBase {
 public:
  CustomFunctionNode(const std::type_info& function,
                     custom_function_detail::CustomBackward backward)
      : FunctionNodeBase(""),
        name_("torch::autograd::CppNode<" + detail::demangle(function.name()) + ">"),
        backward_(backward) {}

  std::string name() const override { return name_; }
  bool materializes_grads() const override { return ctx_.materialize_grads_; }
  AutogradContext& ctx() { return ctx_; }
  std::vector<bool>& is_tensor_argument() { return is_tensor_argument_; }

 protected:
  Grads run(const Context& c) override {
    ctx_.saved_ = c.saved_all();
    ctx_.in_backward_ = true;
    variable_list grads;
    for (size_t i = 0; i < c.grad_count(); ++i) grads.push_back(c.grad(i));
    variable_list returned = backward_(&ctx_, std::move(grads));
    ctx_.saved_.clear();
    ctx_.in_backward_ = false;
    return per_tensor_input(std::move(returned));
  }

 private:
  // backward's gradients, one per forward argument, as the engine wants them: one per tensor
  // input (LibTorch's checks and messages).
  Grads per_tensor_input(variable_list returned) const {
    const size_t arguments = is_tensor_argument_.size();
    if (returned.size() > arguments &&
        std::none_of(returned.begin() + static_cast<std::ptrdiff_t>(arguments), returned.end(),
                     [](const Tensor& g) { return g.defined(); }))
      returned.resize(arguments);  // too many is fine when the extra ones are undefined
    EMBER_CHECK(returned.size() == arguments, "function ", name_,
                " returned an incorrect number of gradients (expected ", arguments, ", got ",
                returned.size(),
                "); return one per forward argument, an undefined Tensor() for "
                "the arguments that are not tensors");
    Grads grads;
    for (size_t i = 0; i < arguments; ++i) {
      if (is_tensor_argument_[i]) {
        grads.push_back(std::move(returned[i]));
        continue;
      }
      EMBER_CHECK(!returned[i].defined(), "function ", name_,
                  " returned a gradient different that is defined at position ", i + 1,
                  ", but the corresponding forward input was not a Variable; return Tensor() "
                  "there");
    }
    return grads;
  }

  std::string name_;
  custom_function_detail::CustomBackward backward_;
  AutogradContext ctx_;
  std::vector<bool> is_tensor_argument_;
};

// ---- AutogradContext
void AutogradContext::save_for_backward(variable_list to_save) { to_save_ = std::move(to_save); }

void AutogradContext::mark_dirty(const variable_list& inputs) { dirty_ = impls_of(inputs); }

void AutogradContext::mark_non_differentiable(const variable_list& outputs) {
  non_differentiable_ = impls_of(outputs);
}

void AutogradContext::set_materialize_grads(bool value) { materialize_grads_ = value; }

variable_list AutogradContext::get_saved_variables() const {
  EMBER_CHECK(in_backward_,
              "[get_saved_variables] the saved variables are available in backward only; "
              "forward has the tensors it passed to save_for_backward");
  return saved_;
}

bool AutogradContext::needs_input_grad(size_t output_edge_index) const {
  return output_edge_index < 64 && ((needs_mask_ >> output_edge_index) & 1);
}

bool AutogradContext::needs_input_grad(std::initializer_list<IndexRange> idxs) const {
  for (const IndexRange& range : idxs)
    for (size_t i = range.first; i < range.second; ++i)
      if (needs_input_grad(i)) return true;
  return false;
}

// ---- one apply()
namespace custom_function_detail {

CustomFunctionCall::CustomFunctionCall(const std::type_info& function, CustomBackward backward)
    : node_(std::make_shared<CustomFunctionNode>(function, backward)) {}

CustomFunctionCall::~CustomFunctionCall() = default;

void CustomFunctionCall::add_tensor_argument(const Tensor& t) {
  EMBER_CHECK(inputs_.size() < 64, "[", node_->name(),
              "] takes at most 64 tensor arguments; pass a longer list as one tensor");
  if (needs_grad(t)) node_->ctx().needs_mask_ |= uint64_t{1} << inputs_.size();
  inputs_.push_back(t);
  node_->is_tensor_argument().push_back(true);
}

void CustomFunctionCall::add_other_argument() { node_->is_tensor_argument().push_back(false); }

AutogradContext* CustomFunctionCall::context() { return &node_->ctx(); }

variable_list CustomFunctionCall::wrap(variable_list outputs) {
  AutogradContext& ctx = node_->ctx();
  for (size_t i = 0; i < outputs.size(); ++i)
    EMBER_CHECK(outputs[i].defined(), "[", node_->name(),
                "] forward returned an undefined "
                "tensor as output ",
                i, "; return only defined tensors");
  for (const Tensor& input : inputs_)
    if (contains(ctx.dirty_, input)) ++detail::impl_of(input)->storage->version;
  if (ctx.needs_mask_ == 0) return outputs;  // nothing requires grad (or grad mode is off)

  for (Tensor& out : outputs) {
    const bool is_input = std::any_of(inputs_.begin(), inputs_.end(),
                                      [&](const Tensor& in) { return in.is_same(out); });
    if (contains(ctx.dirty_, out)) {
      EMBER_CHECK(is_input, "[", node_->name(),
                  "] mark_dirty() names a tensor that is not an "
                  "input; mark only the inputs forward modified in place");
      EMBER_CHECK(!(out.is_leaf() && out.requires_grad()), "[", node_->name(),
                  "] a leaf Variable that requires grad has been used in an in-place operation; "
                  "modify a clone, or call the function inside an ember::NoGradGuard");
    } else if (is_input) {
      // An input returned as it is stays itself; the output is an alias with the new history.
      out = out.detach();
    }
  }
  attach(node_, outputs, inputs_, ctx.to_save_);
  ctx.to_save_.clear();
  for (Tensor& out : outputs)
    if (contains(ctx.non_differentiable_, out)) {
      AutogradMeta& meta = meta_of(*detail::impl_of(out));
      meta.grad_fn = nullptr;
      detail::impl_of(out)->requires_grad = false;
    }
  return outputs;
}

}  // namespace custom_function_detail
}  // namespace ember::autograd
