// Copies that move elements to other positions: flip (a gather of reversed indices per dim) and
// repeat (a copy from an expanded view). Both reuse the gather and copy kernels, so every
// device runs them; their gradients are the same moves backwards.
#include <array>
#include <vector>

#include "autograd/functions/shape.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember {
namespace {

// x reversed along each dim of `dims` (wrapped, distinct).
Tensor reversed(const Tensor& x, const std::vector<int64_t>& dims) {
  if (dims.empty()) return x.clone();
  Tensor r = x;
  for (int64_t d : dims) {
    const int64_t n = x.size(d);
    r = index_select(r, d, arange(n - 1, -1, -1, TensorOptions(kInt64).device(x.device())));
  }
  return r;
}

}  // namespace

Tensor flip(const Tensor& x, IntArrayRef dims) {
  const std::array<bool, detail::kMaxDims> named = detail::named_dims(dims, x.dim(), "flip");
  std::vector<int64_t> moved;  // the dims whose order changes: those of two or more elements
  for (int64_t d = 0; d < x.dim(); ++d)
    if (named[d] && x.size(d) > 1) moved.push_back(d);
  const bool grad = autograd::needs_grad(x);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = reversed(x, moved);
  }
  if (grad) autograd::record({out}, {x}, {}, autograd::functions::FlipBackward0{std::move(moved)});
  return out;
}

Tensor repeat(const Tensor& x, IntArrayRef repeats) {
  const int64_t ndim = x.dim(), nrep = static_cast<int64_t>(repeats.size());
  EMBER_CHECK_T(ValueError, nrep >= ndim,
                "[repeat] Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor (got ",
                repeats, " for a tensor of shape ", x.sizes(), ")");
  // Each dim i of the result is [repeats[i], size[i]] flattened: x viewed with a 1 before each
  // of its dims (and as 1 for the extra leading repeats) is expanded to that, then copied.
  std::vector<int64_t> split, tiled, shape;
  for (int64_t i = 0; i < nrep; ++i) {
    const int64_t r = repeats[i], s = i < nrep - ndim ? 1 : x.size(i - (nrep - ndim));
    EMBER_CHECK_T(ValueError, r >= 0, "[repeat] repeats must be non-negative, got ", repeats);
    int64_t n = 0;
    EMBER_CHECK_T(ValueError, !__builtin_mul_overflow(r, s, &n),
                  "[repeat] repeating a tensor of shape ", x.sizes(), " by ", repeats,
                  " gives a size past int64");
    split.insert(split.end(), {1, s});
    tiled.insert(tiled.end(), {r, s});
    shape.push_back(n);
  }
  const bool grad = autograd::needs_grad(x);
  Tensor out = empty(shape, x.options());
  {
    autograd::NoGradGuard no_grad;
    out.view(tiled).copy_(x.reshape(split).expand(tiled));
  }
  if (grad)  // every copy of an element adds its gradient back to it
    autograd::record({out}, {x}, {},
                     autograd::functions::RepeatBackward0{std::move(tiled), x.sizes().vec()});
  return out;
}

}  // namespace ember
