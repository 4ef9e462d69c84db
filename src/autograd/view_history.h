// How autograd follows views: which tensor a view views, and the histories an in-place op on a
// view rewrites.
//
// Note [Views in autograd]
// A view op's result remembers its base, the tensor it views (for a view of a view, the first
// one that is not a view), as PyTorch's DifferentiableViewMeta does. An in-place op on a view of
// a tensor in a graph changes the base's values too, so it rewrites both histories, as PyTorch:
// - the base's new grad_fn is CopySlices, whose inputs are the base's old history and the op's
//   result: the base's gradient flows to the result where the view sits, to the old history
//   elsewhere;
// - the view's new grad_fn is AsStridedBackward0 of the base: the view's elements found in the
//   base's storage with the view's geometry.
// Every write bumps the storage's version, which all views of it share. A view whose history
// was set at an older version may hold values written since (through its base or another
// view), so autograd rebuilds its history as AsStridedBackward0 of the base when it next reads
// it (PyTorch's regeneration in VariableHooks::grad_fn); a view made before its base joined a
// graph joins it then (autograd::requires_grad_now).
// Refused under grad mode when autograd takes part (the view, its base or the op's other operand
// requires grad), with PyTorch's messages: an in-place op on a view made in no-grad mode (whether
// the write should be tracked is ambiguous), and on a view of a leaf (the leaf's values would
// change under its users). detach() makes no view: its result is a plain alias, as in PyTorch.
// Unlike PyTorch, the pieces of split, chunk and unbind may be written in place: each is a view
// with its own node here, so CopySlices gives them the right gradients.
#pragma once

#include "core/tensor_impl.h"
#include "ember/tensor.h"

namespace ember::autograd {

// Makes `view`, just made by a view op from `of`, a view of of's base.
void track_view(const Tensor& view, const Tensor& of);

// check_inplace's rules for a view about to be written in place under autograd.
void check_view_inplace(detail::TensorImpl& view, const char* op);

// rebase_history for a view: `view` was just overwritten in place with `result`'s values.
void rebase_view_history(const Tensor& view, const Tensor& result);

// Rebuilds the history of a view whose storage was written since its history was set.
void refresh_view_history(const Tensor& view);

}  // namespace ember::autograd
