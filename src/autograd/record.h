// How an op records itself for autograd: `needs_grad(inputs...)` decides, `record(...)` attaches
// a node that runs the op's backward formula.
//
// Note [Where backward formulas live]
// Formulas live together, never beside an op's forward code:
// - an elementwise op of a table (ops/unary_table.h, ops/binary_table.h) has its gradients in its
//   row, and the table's front half records them;
// - every other op's formula is a struct in src/autograd/functions/<family>.{h,cpp}, named as
//   PyTorch names its node and holding what the formula needs besides saved tensors:
//     if (autograd::needs_grad(x))
//       autograd::record({out}, {x}, {x}, functions::ClampBackward1{min, max});
//   A struct that serves several nodes has no kName: it is named for them where they differ only
//   in number (SumBackward: SumBackward0 and SumBackward1), else for what it computes
//   (ReshapeBackward: ViewBackward0, SqueezeBackward0, ...); its comment lists them, and the op
//   passes the node's name: autograd::record(name, {out}, {x}, {}, functions::SumBackward{...}).
// A formula sees the output gradients and the saved tensors (version-checked) and returns one
// gradient per input (undefined where not needed). It is written with ember's own ops, so it runs
// on whatever device the tensors live on, and the engine reduces a broadcast gradient to its
// input's shape and casts it to its input's dtype and device, so formulas stay short.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/tensor_impl.h"
#include "ember/autograd.h"
#include "ember/tensor.h"

namespace ember::autograd {

using Grads = std::vector<Tensor>;

namespace detail_tls {
extern thread_local bool grad_enabled;
}

// Whether `t` requires grad. A view whose base joined a graph after the view was made joins it
// here, its history rebuilt (Note [Views in autograd]).
bool view_requires_grad(const Tensor& view);
inline bool requires_grad_now(const Tensor& t) {
  const detail::TensorImpl& impl = *detail::impl_of(t);
  return impl.requires_grad || (impl.view_base != nullptr && view_requires_grad(t));
}

// True when grad mode is on and any of the tensors requires grad (the cheap check every op
// makes; plain tensors never get past the flag tests).
template <class... Ts>
inline bool needs_grad(const Ts&... tensors) {
  return ((tensors.defined() && requires_grad_now(tensors)) || ...) && detail_tls::grad_enabled;
}
bool needs_grad_any(const std::vector<Tensor>& tensors);

// A tensor a backward formula will need, with the version it had when saved (Note [Saved
// tensors are aliases] in node.cpp).
class SavedTensor {
 public:
  // output_nr: which output of the saving node `t` is (its grad_fn is then the node itself),
  // or -1; history: where the gradient of `t` flows, for an input that requires grad.
  SavedTensor(const Tensor& t, int32_t output_nr, Edge history);
  // The values; under grad mode (a create_graph pass) an alias that has t's history again, so
  // that the formula's own ops are recorded back to t's graph.
  Tensor unpack(Node& owner) const;
  bool defined() const { return data_.defined(); }

 private:
  Tensor data_;
  Edge history_;
  uint32_t version_;
  int32_t output_nr_;
  bool requires_grad_;
};

// What a backward formula sees.
class Context {
 public:
  Context(const Grads& grads, const std::vector<Tensor>& saved, uint64_t needs_mask)
      : grads_(grads), saved_(saved), needs_mask_(needs_mask) {}
  const Tensor& grad(size_t output = 0) const { return grads_[output]; }
  size_t grad_count() const { return grads_.size(); }
  const Tensor& saved(size_t i) const { return saved_[i]; }
  const std::vector<Tensor>& saved_all() const { return saved_; }
  bool needs(size_t input) const { return (needs_mask_ >> input) & 1; }

 private:
  const Grads& grads_;
  const std::vector<Tensor>& saved_;
  uint64_t needs_mask_;
};

// The part of every recorded node that is not its formula.
class FunctionNodeBase : public Node {
 public:
  explicit FunctionNodeBase(const char* name) : name_(name) {}
  std::string name() const override { return name_; }
  Grads apply(Grads&& grads) override;
  void release_variables() override;

 protected:
  virtual Grads run(const Context& ctx) = 0;

 private:
  std::vector<SavedTensor> saved_;
  const char* name_;
  bool released_ = false;
  uint64_t needs_mask_ = 0;
  friend void attach(const std::shared_ptr<FunctionNodeBase>&, const std::vector<Tensor>&,
                     const std::vector<Tensor>&, const std::vector<Tensor>&);
};

template <class F>
class FunctionNode final : public FunctionNodeBase {
 public:
  FunctionNode(const char* name, F fn) : FunctionNodeBase(name), fn_(std::move(fn)) {}

 protected:
  Grads run(const Context& ctx) override { return fn_(ctx); }

 private:
  F fn_;
};

// Connects `node` to the graph: edges to the inputs, saved tensors, and makes it the grad_fn of
// each output (which then requires grad).
void attach(const std::shared_ptr<FunctionNodeBase>& node, const std::vector<Tensor>& outputs,
            const std::vector<Tensor>& inputs, const std::vector<Tensor>& saved);

template <class F>
void record(const char* name, const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
            const std::vector<Tensor>& saved, F formula) {
  attach(std::make_shared<FunctionNode<F>>(name, std::move(formula)), outputs, inputs, saved);
}
// The same for a formula of autograd/functions/: a struct named as its node, F::kName.
template <class F>
void record(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
            const std::vector<Tensor>& saved, F formula) {
  record(F::kName, outputs, inputs, saved, std::move(formula));
}

// The type arithmetic on `t` is done in: float32 for float16 and bfloat16, as PyTorch's kernels
// compute them. Formulas that sum or raise to powers (reductions, softmax, normalisation) use
// it: in 16 bits their intermediates overflow or cancel.
inline ScalarType opmath_type(ScalarType t) {
  return t == kFloat16 || t == kBFloat16 ? kFloat32 : t;
}
// `t` in its opmath type; undefined stays undefined.
inline Tensor in_opmath(const Tensor& t) {
  return t.defined() && opmath_type(t.scalar_type()) != t.scalar_type() ? t.to(kFloat32) : t;
}

// The gradient reduced to `shape` by summing the broadcast dimensions (the engine does this for
// every formula; exposed for formulas that need it before further math).
Tensor sum_to(const Tensor& grad, IntArrayRef shape);

// In-place ops: refuses what autograd cannot allow (a leaf that requires grad, a view of one,
// Note [Views in autograd]). Returns false after bumping the version counter when the op can just
// write; true when `self` must get new history: the op then computes out of place, writes the
// result with copy_ (which bumps the version) and calls rebase_history.
bool check_inplace(const Tensor& self, const char* op, bool other_requires_grad);
// Makes `self` (just overwritten in place with `result`'s values) take over result's history.
void rebase_history(const Tensor& self, const Tensor& result);

}  // namespace ember::autograd
