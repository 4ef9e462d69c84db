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

Grads SelectBackward0::operator()(const Context& c) const {
  Tensor z = zeros(input, c.grad().options());
  z.select(dim, index).copy_(c.grad());
  return Grads{z};
}

Grads SliceBackward0::operator()(const Context& c) const {
  Tensor z = zeros(input, c.grad().options());
  z.slice(dim, start, end, step).copy_(c.grad());
  return Grads{z};
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
