// Backward formulas of the ops that move elements (see shape.h).
#include "autograd/functions/shape.h"

#include "ember/factory.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember::autograd::functions {

Grads ReshapeBackward::operator()(const Context& c) const { return Grads{c.grad().reshape(input)}; }

Grads TransposeBackward0::operator()(const Context& c) const {
  return Grads{c.grad().transpose(dim0, dim1)};
}

Grads TBackward0::operator()(const Context& c) const { return Grads{c.grad().t()}; }

Grads PermuteBackward0::operator()(const Context& c) const {
  return Grads{c.grad().permute(inverse)};
}

Grads UnsqueezeBackward0::operator()(const Context& c) const {
  return Grads{c.grad().squeeze(dim)};
}

Grads ExpandBackward0::operator()(const Context& c) const { return Grads{sum_to(c.grad(), input)}; }

namespace {
// Zeros of `shape` with `grad` at positions start, start + step, ... along `dim`, composed from
// cat so that a create_graph pass records it (writing into a view of the zeros would not be).
Tensor placed_in_zeros(Tensor grad, IntArrayRef shape, int64_t dim, int64_t start, int64_t step) {
  auto zeros_along = [&](int64_t d, int64_t n) {
    std::vector<int64_t> s = grad.sizes().vec();
    s[static_cast<size_t>(d)] = n;
    return zeros(s, grad.options());
  };
  const int64_t n = grad.size(dim);
  if (step > 1 && n > 0) {  // step - 1 zeros after each element, the last ones cut off
    grad = grad.unsqueeze(dim + 1);
    grad = cat({grad, zeros_along(dim + 1, step - 1)}, dim + 1).flatten(dim, dim + 1);
    grad = grad.narrow(dim, 0, (n - 1) * step + 1);
  }
  const int64_t after = shape[static_cast<size_t>(dim)] - start - grad.size(dim);
  return cat({zeros_along(dim, start), grad, zeros_along(dim, after)}, dim);
}
}  // namespace

Grads SelectBackward0::operator()(const Context& c) const {
  return Grads{placed_in_zeros(c.grad().unsqueeze(dim), input, dim, index, 1)};
}

Grads SliceBackward0::operator()(const Context& c) const {
  return Grads{placed_in_zeros(c.grad(), input, dim, start, step)};
}

Grads CatBackward0::operator()(const Context& c) const {
  Grads grads;  // a legacy empty input gets an empty gradient, as in PyTorch
  for (auto [start, length] : ranges)
    grads.push_back(length < 0 ? empty({0}, c.grad().options())
                               : c.grad().narrow(dim, start, length));
  return grads;
}

Grads StackBackward0::operator()(const Context& c) const {
  Grads grads;
  for (int64_t i = 0; i < c.grad().size(dim); ++i) grads.push_back(c.grad().select(dim, i));
  return grads;
}

Grads FlipBackward0::operator()(const Context& c) const { return Grads{flip(c.grad(), dims)}; }

Grads RepeatBackward0::operator()(const Context& c) const {
  std::vector<int64_t> copies;  // the repeat dims of the tiled shape
  for (size_t i = 0; i < tiled.size(); i += 2) copies.push_back(static_cast<int64_t>(i));
  return Grads{c.grad().reshape(tiled).sum(copies).reshape(input)};
}

Grads TriangleBackward::operator()(const Context& c) const {
  return Grads{lower ? tril(c.grad(), diagonal) : triu(c.grad(), diagonal)};
}

Grads IdentityBackward::operator()(const Context& c) const { return Grads{c.grad()}; }

Grads FillBackward0::operator()(const Context& c) const { return Grads{zeros_like(c.grad())}; }

}  // namespace ember::autograd::functions
