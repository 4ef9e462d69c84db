// Operand layouts: an operand of a given shape is made as a contiguous base plus up to two view
// steps (transpose, permute, strided slice, expand), so that ops see the strides, offsets and
// zero strides that real programs hand them. Built backwards from the operand's shape.
#include <algorithm>

#include "gen.h"

namespace difftest {
namespace {

// One view step whose result has shape `out`; sets `in` to the shape it must be applied to, or
// returns false when none fits.
bool step_towards(Rng& rng, const Shape& out, Shape& in, ViewStep& step) {
  const int64_t n = static_cast<int64_t>(out.size());
  in = out;
  switch (rng.uniform(0, 3)) {
    case 0: {  // transpose
      if (n < 2) return false;
      int64_t i = rng.uniform(0, n - 1), j = rng.uniform(0, n - 2);
      if (j >= i) ++j;
      std::swap(in[i], in[j]);
      step = {ViewStep::Kind::Transpose, {i, j}};
      return true;
    }
    case 1: {  // permute: out[k] = in[order[k]]
      if (n < 3) return false;
      std::vector<int64_t> order(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) order[k] = k;
      for (int64_t k = n - 1; k > 0; --k) std::swap(order[k], order[rng.uniform(0, k)]);
      for (int64_t k = 0; k < n; ++k) in[order[k]] = out[k];
      step = {ViewStep::Kind::Permute, order};
      return true;
    }
    case 2: {  // slice(d, start, start + size * step, step) of a larger dim
      if (n < 1) return false;
      int64_t d = rng.uniform(0, n - 1), stride = rng.uniform(1, 3), start = rng.uniform(0, 2);
      int64_t extra = rng.uniform(0, stride - 1);  // less than a step: the size stays out[d]
      in[d] = out[d] > 0 ? start + (out[d] - 1) * stride + 1 + extra : start + extra;
      step = {ViewStep::Kind::Slice, {d, start, start + out[d] * stride, stride}};
      return true;
    }
    default: {  // expand from size-1 dims, and from fewer leading dims
      if (n < 1) return false;
      for (int64_t& s : in)
        if (rng.chance(0.5)) s = 1;
      if (rng.chance(0.3)) in.erase(in.begin());
      if (in == out) return false;
      step = {ViewStep::Kind::Expand, out};
      return true;
    }
  }
}

}  // namespace

std::vector<ViewStep> Gen::layout(const Shape& shape, Shape& base_shape) {
  static const std::vector<double> by_depth = {50, 35, 15};
  const size_t depth = rng.weighted(by_depth);
  std::vector<ViewStep> backwards;
  Shape current = shape;
  for (size_t attempt = 0; backwards.size() < depth && attempt < 8; ++attempt) {
    Shape in;
    ViewStep step;
    if (!step_towards(rng, current, in, step) || numel(in) > 1024) continue;
    backwards.push_back(std::move(step));
    current = std::move(in);
  }
  base_shape = current;
  return std::vector<ViewStep>(backwards.rbegin(), backwards.rend());
}

}  // namespace difftest
