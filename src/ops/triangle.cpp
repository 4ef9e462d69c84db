// tril and triu: the elements on one side of a diagonal of the last two dims, the rest zeroed,
// through masked_fill with a mask built from two aranges (so every device runs them). Their
// gradient keeps the same triangle.
#include "autograd/functions/shape.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"

namespace ember {
namespace {

struct Triangle {
  const char* op;
  const char* backward;
  bool lower;
};

Tensor keep_triangle(const Triangle& tri, const Tensor& x, int64_t diagonal) {
  EMBER_CHECK_T(ValueError, x.dim() >= 2, "[", tri.op,
                "] input tensor must have at least 2 dimensions, got a tensor of shape ",
                x.sizes());
  const int64_t rows = x.size(-2), cols = x.size(-1);
  const TensorOptions longs = TensorOptions(kInt64).device(x.device());
  // column - row: 0 on the main diagonal, `diagonal` on the one that bounds the triangle.
  Tensor offset = arange(cols, longs).view({1, cols}) - arange(rows, longs).view({rows, 1});
  Tensor outside = tri.lower ? offset > diagonal : offset < diagonal;
  const bool grad = autograd::needs_grad(x);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = masked_fill(x, outside, 0);
  }
  if (grad)
    autograd::record(tri.backward, {out}, {x}, {},
                     autograd::functions::TriangleBackward{tri.lower, diagonal});
  return out;
}

}  // namespace

Tensor tril(const Tensor& x, int64_t diagonal) {
  return keep_triangle({"tril", "TrilBackward0", true}, x, diagonal);
}

Tensor triu(const Tensor& x, int64_t diagonal) {
  return keep_triangle({"triu", "TriuBackward0", false}, x, diagonal);
}

}  // namespace ember
