// Arguments of the view ops (view, reshape, ..., index) and the copies (to, contiguous, clone):
// sizes with -1, negative and out-of-range dims and bounds, Python's slice clamping.
#include <algorithm>

#include "gen.h"

namespace difftest {
namespace {

// A shape with the same number of elements (a random factorisation), sometimes with one -1, or
// rarely one that does not fit.
std::vector<int64_t> same_numel(Gen& g, int64_t count) {
  std::vector<int64_t> shape;
  const int64_t ndim = g.rng.uniform(0, 4);
  int64_t left = count;
  for (int64_t i = 0; i + 1 < ndim; ++i) {
    std::vector<int64_t> divisors;
    for (int64_t d = 1; d <= std::max<int64_t>(left, 1); ++d)
      if (left % d == 0) divisors.push_back(d);
    int64_t d = left == 0 && g.rng.chance(0.5) ? g.rng.uniform(0, 3) : g.rng.pick(divisors);
    shape.push_back(d);
    if (d != 0) left /= d;
  }
  if (ndim > 0 || left != 1) shape.push_back(left);
  if (!shape.empty() && g.rng.chance(0.3))
    shape[static_cast<size_t>(g.rng.uniform(0, static_cast<int64_t>(shape.size()) - 1))] = -1;
  if (g.rng.chance(0.03)) shape.push_back(2);
  return shape;
}

// expand's sizes: -1 keeps a dim, a size-1 dim may become any size, new leading dims.
std::vector<int64_t> expanded(Gen& g, const Shape& s) {
  std::vector<int64_t> size;
  if (g.rng.chance(0.3)) size.push_back(g.rng.uniform(0, 3));
  for (int64_t d : s) {
    if (g.rng.chance(0.2)) size.push_back(-1);
    else size.push_back(d == 1 ? g.rng.uniform(0, 3) : d);
  }
  if (g.rng.chance(0.03)) size.push_back(7);  // a non-singleton mismatch (or too few sizes)
  return size;
}

std::vector<int64_t> permutation(Gen& g, int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(order[i], order[g.rng.uniform(0, i)]);
  for (int64_t& d : order)
    if (g.rng.chance(0.2)) d -= n;
  if (n > 1 && g.rng.chance(0.03)) order[0] = order[1];  // repeated: an error in both
  return order;
}

// A position in a dim of size n, as Python bounds go: negative counts from the end, and rarely
// out of range.
int64_t bound(Gen& g, int64_t n) {
  return g.rng.uniform(-n - (g.rng.chance(0.1) ? 2 : 0), n + (g.rng.chance(0.1) ? 2 : 0));
}

IndexList index_items(Gen& g) {
  IndexList list;
  // At least one item: LibTorch's C++ index() refuses an empty list (Python's x[()], which
  // ember's index({}) is, returns x).
  const int64_t count = g.rng.uniform(1, 4);
  bool ellipsis = false;
  for (int64_t i = 0; i < count; ++i) {
    IndexItem item;
    switch (g.rng.uniform(0, 4)) {
      case 0:
        item.kind = IndexItem::Kind::Integer;
        item.integer = g.rng.uniform(-2, 2);
        break;
      case 1:
        item.kind = IndexItem::Kind::Slice;
        item.has_start = g.rng.chance(0.6);
        item.has_stop = g.rng.chance(0.6);
        item.start = g.rng.uniform(-4, 4);
        item.stop = g.rng.uniform(-4, 4);
        item.step = g.rng.uniform(1, 3);
        break;
      case 2: item.kind = IndexItem::Kind::NewAxis; break;
      case 3: {
        // Index tensors broadcast together (or, rarely, fail to in both libraries).
        static const std::vector<Shape> kShapes = {{}, {2}, {3}, {2, 1}, {1, 2}};
        item.kind = IndexItem::Kind::Tensor;
        item.tensor = g.index_tensor(g.rng.pick(kShapes), -2, 2).index;
        break;
      }
      default:
        // One at most: Python (and ember) refuse a second one, LibTorch's C++ index() does not.
        if (ellipsis) continue;
        item.kind = IndexItem::Kind::Ellipsis;
        ellipsis = true;
        break;
    }
    list.items.push_back(item);
  }
  return list;
}

}  // namespace

void gen_view(Gen& g, OpKind op) {
  const Shape s = g.shape();
  const int64_t n = static_cast<int64_t>(s.size());
  const DType a = g.dtype();
  if (op == OpKind::To) {
    const DType target = g.dtype();
    const bool narrowing = is_floating(a) && !is_floating(target) && target != DType::Bool;
    g.arg("self", g.tensor(a, s,
                           narrowing ? Values::range(target == DType::UInt8 ? 0 : -100, 100)
                                     : Values::general()));
    g.arg("dtype", target);
    return;
  }
  g.arg("self", g.tensor(a, s));
  switch (op) {
    case OpKind::View: g.arg("size", IntList{same_numel(g, numel(s))}); return;
    case OpKind::Reshape: g.arg("shape", IntList{same_numel(g, numel(s))}); return;
    case OpKind::Flatten:
      g.arg("start_dim", g.dim(n));
      g.arg("end_dim", g.dim(n));
      return;
    case OpKind::Transpose:
      g.arg("dim0", g.dim(n));
      g.arg("dim1", g.dim(n));
      return;
    case OpKind::Permute: g.arg("dims", IntList{permutation(g, n)}); return;
    case OpKind::Squeeze:
      if (g.rng.chance(0.7)) g.arg("dim", g.dim(n));
      return;
    case OpKind::Unsqueeze: g.arg("dim", g.dim(n + 1)); return;
    case OpKind::Expand: g.arg("size", IntList{expanded(g, s)}); return;
    case OpKind::Narrow:
    case OpKind::Select:
    case OpKind::Slice: {
      const int64_t d = g.dim(n);
      const int64_t size = n == 0 ? 1 : s[static_cast<size_t>(((d % n) + n) % n)];
      g.arg("dim", d);
      if (op == OpKind::Select) {
        const bool out_of_range = size == 0 || g.rng.chance(0.05);
        g.arg("index", out_of_range ? (g.rng.chance(0.5) ? size : -size - 1)
                                    : g.rng.uniform(-size, size - 1));
      } else if (op == OpKind::Narrow) {
        const int64_t start = bound(g, size);
        g.arg("start", start);
        g.arg("length",
              g.rng.uniform(
                  g.rng.chance(0.03) ? -1 : 0,
                  size + 1 - std::clamp<int64_t>(start < 0 ? start + size : start, 0, size)));
      } else {
        g.arg("start", g.rng.chance(0.3) ? ArgValue(NoneArg{}) : ArgValue(bound(g, size)));
        g.arg("end", g.rng.chance(0.3) ? ArgValue(NoneArg{}) : ArgValue(bound(g, size)));
        g.arg("step", g.rng.uniform(g.rng.chance(0.03) ? 0 : 1, 3));
      }
      return;
    }
    case OpKind::Index: g.arg("indices", index_items(g)); return;
    default: return;  // t, contiguous, clone
  }
}

}  // namespace difftest
