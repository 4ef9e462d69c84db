// Backward formulas of the indexing ops (see index.h).
#include "autograd/functions/index.h"

#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"

namespace ember::autograd::functions {

Grads IndexSelectBackward0::operator()(const Context& c) const {
  Tensor g = c.grad().reshape(gathered);
  std::vector<int64_t> along(g.dim(), 1);
  along[dim] = g.size(dim);
  Tensor index = c.saved(0).view(along).expand(g.sizes());
  Tensor z = zeros(input.empty() ? std::vector<int64_t>{1} : input, g.options());
  z.scatter_add_(dim, index, g);  // in place: z is new, no clone needed
  return Grads{z.reshape(input)};
}

Grads GatherBackward0::operator()(const Context& c) const {
  Tensor z = zeros(input, c.grad().options());
  z.scatter_add_(dim, c.saved(0), c.grad());  // in place: z is new, no clone needed
  return Grads{z};
}

Grads ScatterBackward::operator()(const Context& c) const {
  const Tensor &g = c.grad(), &index = c.saved(0);
  return Grads{scatter(g, dim, index, 0.0), c.needs(1) ? gather(g, dim, index) : Tensor()};
}

Grads ScatterAddBackward0::operator()(const Context& c) const {
  const Tensor &g = c.grad(), &index = c.saved(0);
  return Grads{g, c.needs(1) ? gather(g, dim, index) : Tensor()};
}

Grads MaskedFillBackward0::operator()(const Context& c) const {
  return Grads{where(c.saved(0), 0.0, c.grad())};
}

Grads MaskedSelectBackward0::operator()(const Context& c) const {
  Tensor z = zeros(broadcast, c.grad().options()).view({-1});
  return Grads{scatter(z, 0, c.saved(0), c.grad()).view(broadcast)};
}

Grads EmbeddingBackward0::operator()(const Context& c) const {
  const Tensor& index = c.saved(0);
  Tensor g = c.grad().reshape({-1, columns});
  if (padding_idx) g = g.masked_fill((index == *padding_idx).unsqueeze(1), 0.0);
  Tensor z = zeros({rows, columns}, g.options());
  z.scatter_add_(0, index.unsqueeze(1).expand({index.size(0), columns}), g);  // z: new, in place
  return Grads{z};
}

}  // namespace ember::autograd::functions
