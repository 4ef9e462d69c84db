// Backward formulas of advanced indexing (see advanced_index.h).
#include "autograd/functions/advanced_index.h"

#include <optional>

#include "ember/factory.h"
#include "ember/ops.h"

namespace ember::autograd::functions {
namespace {

// The saved positions as Tensor::index's List: one entry per dim up to the last indexed one.
List<std::optional<Tensor>> positions(const Context& c, const std::vector<int64_t>& dims) {
  std::vector<std::optional<Tensor>> list(static_cast<size_t>(dims.empty() ? 0 : dims.back() + 1));
  for (size_t k = 0; k < dims.size(); ++k) list[static_cast<size_t>(dims[k])] = c.saved(k);
  return List<std::optional<Tensor>>(std::move(list));
}

}  // namespace

Grads IndexBackward0::operator()(const Context& c) const {
  Tensor grad = zeros(input, c.grad().options());  // fresh: written in place, no clone
  grad.index_put_(positions(c, dims), c.grad(), true);
  return Grads{grad};
}

Grads IndexPutBackward0::operator()(const Context& c) const {
  const Tensor& g = c.grad();
  const List<std::optional<Tensor>> at = positions(c, dims);
  Tensor self_grad;
  if (c.needs(0)) self_grad = accumulate ? g : g.index_put(at, zeros({}, g.options()), false);
  Tensor values_grad;
  if (c.needs(1)) {
    // index_put_ drops the values' leading dims of size 1 before broadcasting them.
    const Tensor read = g.index(at);
    std::vector<int64_t> fitted = values;
    while (fitted.size() > static_cast<size_t>(read.dim()) && fitted.front() == 1)
      fitted.erase(fitted.begin());
    values_grad = sum_to(read, fitted).view(values);
  }
  return Grads{self_grad, values_grad};
}

}  // namespace ember::autograd::functions
