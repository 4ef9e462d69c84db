// Arguments of joining, splitting, indexing, rearranging and sorting ops: lists of tensors of
// mixed dtypes, index tensors in and (rarely) out of range, ties and distinct values for
// sorting.
#include <algorithm>

#include "gen.h"

namespace difftest {
namespace {

// The shape of a gather/scatter index for `self` of shape s along d: at most self's size in
// every other dim, any size (0-3) along d; `at_most_self`: at most self's size along d too.
Shape index_shape(Gen& g, const Shape& s, int64_t d, bool at_most_self) {
  Shape idx = s;
  for (size_t i = 0; i < idx.size(); ++i)
    idx[i] = static_cast<int64_t>(i) == d && !at_most_self ? g.rng.uniform(0, 3)
                                                           : g.rng.uniform(0, s[i]);
  return idx;
}

// d as a dim in [0, ndim) for sizing arguments, also when it is out of range (the op then fails).
int64_t pos(int64_t d, int64_t ndim) { return ((d % ndim) + ndim) % ndim; }

// A contiguous int64 index whose every slice along d holds distinct positions in [0, size), so
// that no two sources scatter to one place (which would leave the result to the write order).
TensorRef distinct_index(Gen& g, const Shape& idx, int64_t d, int64_t size) {
  std::vector<double> values(static_cast<size_t>(numel(idx)));
  const int64_t along = idx.empty() ? 1 : idx[d];
  int64_t inner = 1;
  for (size_t i = static_cast<size_t>(d) + 1; i < idx.size(); ++i) inner *= idx[i];
  const int64_t outer = along == 0 || inner == 0 ? 0 : numel(idx) / (along * inner);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<int64_t> positions(static_cast<size_t>(size));
      for (int64_t k = 0; k < size; ++k) positions[k] = k;
      for (int64_t k = size - 1; k > 0; --k)
        std::swap(positions[k], positions[g.rng.uniform(0, k)]);
      for (int64_t k = 0; k < along; ++k)
        values[static_cast<size_t>((o * along + k) * inner + i)] =
            static_cast<double>(positions[k]);
    }
  }
  return g.tensor_of(DType::Int64, idx, std::move(values));
}

void gen_cat(Gen& g, OpKind op) {
  const DType a = g.dtype();
  const Shape s = g.shape(g.rng.chance(0.03) ? 0 : 1);
  const int64_t n = static_cast<int64_t>(s.size());
  const int64_t d = g.dim(op == OpKind::Stack ? n + 1 : n);
  std::vector<int> list;
  const int64_t count = g.rng.uniform(g.rng.chance(0.03) ? 0 : 1, 4);
  for (int64_t i = 0; i < count; ++i) {
    Shape t = s;
    if (op == OpKind::Cat && !t.empty()) t[static_cast<size_t>(pos(d, n))] = g.rng.uniform(0, 3);
    if (g.rng.chance(0.03) && !t.empty()) t.front() += 1;  // mismatch: an error in both
    if (op == OpKind::Cat && g.rng.chance(0.08)) t = {0};  // the legacy empty tensor cat skips
    list.push_back(g.tensor(g.dtype_or(a), t).index);
  }
  g.arg("tensors", TensorListRef{list});
  g.arg("dim", d);
}

void gen_split(Gen& g, OpKind op) {
  const Shape s = g.shape(g.rng.chance(0.03) ? 0 : 1);
  const int64_t n = static_cast<int64_t>(s.size());
  g.arg("self", g.tensor(g.dtype(), s));
  const int64_t d = g.dim(n);
  if (op == OpKind::Chunk) {
    g.arg("chunks", g.rng.uniform(g.rng.chance(0.03) ? -1 : 1, 5));
  } else if (g.rng.chance(0.6) || n == 0) {
    g.arg("split_size", g.rng.uniform(g.rng.chance(0.05) ? -1 : 0, 4));
  } else {
    int64_t left = s[static_cast<size_t>(pos(d, n))];
    std::vector<int64_t> sizes;
    while (left > 0 || sizes.empty()) {
      int64_t piece = std::min(left, g.rng.uniform(0, 3));
      sizes.push_back(piece);
      left -= piece;
    }
    if (g.rng.chance(0.05)) sizes.back() += 1;  // not summing to the size: an error in both
    g.arg("split_size", IntList{sizes});
  }
  g.arg("dim", d);
}

void gen_indexing(Gen& g, OpKind op) {
  const DType a = g.dtype();
  const Shape s = g.shape();
  const int64_t n = static_cast<int64_t>(s.size());
  const int64_t d = g.dim(n);
  const int64_t size = s.empty() ? 1 : s[static_cast<size_t>(pos(d, n))];
  const int64_t hi = g.rng.chance(0.03) ? size : size - 1;  // rarely one past the end
  g.arg("self", g.tensor(a, s));
  g.arg("dim", d);
  switch (op) {
    case OpKind::IndexSelect: {
      Shape idx = g.rng.chance(0.8) ? Shape{g.rng.uniform(0, 4)} : Shape{};
      // One index for a 0-dim self: LibTorch 1.13 writes out of bounds for more (2.x refuses,
      // as ember does, but the reference would corrupt the test's memory).
      if (s.empty()) idx = g.rng.chance(0.5) ? Shape{1} : Shape{};
      if (size == 0 && hi < 0 && numel(idx) > 0) idx = {0};
      DType t = g.rng.chance(0.8) ? DType::Int64 : DType::Int32;
      g.arg("index",
            g.tensor(t, idx, Values::range(0, static_cast<double>(std::max<int64_t>(hi, 0)))));
      return;
    }
    case OpKind::Gather: {
      Shape idx = s.empty() ? Shape{} : index_shape(g, s, pos(d, n), false);
      if (hi < 0) std::fill(idx.begin(), idx.end(), 0);
      g.arg("index", g.index_tensor(idx, 0, std::max<int64_t>(hi, 0)));
      return;
    }
    default: {  // scatter, scatter_add: src covers the index; scatter's positions are distinct
      const int64_t dd = s.empty() ? 0 : pos(d, n);
      Shape idx = s.empty() ? Shape{} : index_shape(g, s, dd, op == OpKind::Scatter);
      if (op == OpKind::Scatter && size > 0) {
        g.arg("index", distinct_index(g, idx, dd, size));
      } else {
        if (hi < 0) std::fill(idx.begin(), idx.end(), 0);
        g.arg("index", g.index_tensor(idx, 0, std::max<int64_t>(hi, 0)));
      }
      if (op == OpKind::Scatter && g.rng.chance(0.3)) {
        g.arg("value", g.scalar(a));
        return;
      }
      Shape src = idx;
      for (int64_t& x : src) x += g.rng.uniform(0, 1);
      g.arg("src", g.tensor(g.rng.chance(0.95) ? a : g.dtype(), src));
      return;
    }
  }
}

void gen_sort(Gen& g, OpKind op) {
  const DType a = g.dtype();
  const Shape s = g.shape();
  const int64_t n = static_cast<int64_t>(s.size());
  g.arg("self", g.tensor(a, s, g.rng.chance(0.5) ? Values::distinct() : Values::general()));
  const int64_t d = g.dim(n);
  if (op == OpKind::Topk) {
    const int64_t size = s.empty() ? 1 : s[static_cast<size_t>(pos(d, n))];
    g.arg("k", g.rng.uniform(g.rng.chance(0.03) ? -1 : 0, g.rng.chance(0.03) ? size + 1 : size));
  }
  g.arg("dim", d);
  if (op == OpKind::Topk) {
    g.arg("largest", g.rng.chance(0.5));
    g.arg("sorted", g.rng.chance(0.8));
  } else {
    g.arg("descending", g.rng.chance(0.5));
  }
}

// flip, repeat, tril/triu, nonzero and masked_select: one input of any dtype and layout.
void gen_rearrange(Gen& g, OpKind op) {
  const DType a = g.dtype();
  const bool triangle = op == OpKind::Tril || op == OpKind::Triu;
  // tril/triu need two dims (rarely fewer: an error in both); nonzero counts zeros.
  const Shape s = g.shape(triangle && g.rng.chance(0.97) ? 2 : 0);
  const int64_t n = static_cast<int64_t>(s.size());
  g.arg("self", g.tensor(a, s, op == OpKind::Nonzero ? Values::small() : Values::general()));
  switch (op) {
    case OpKind::Flip: {
      const bool none = g.rng.chance(0.1);  // flip({}) is a copy
      g.arg("dims", IntList{none ? std::vector<int64_t>{} : g.dims(std::max<int64_t>(n, 1))});
      return;
    }
    case OpKind::Repeat: {
      // One repeat per dim, sometimes extra leading ones, rarely too few (an error in both).
      std::vector<int64_t> repeats(static_cast<size_t>(n + g.rng.uniform(0, 2)));
      if (g.rng.chance(0.03) && !repeats.empty()) repeats.pop_back();
      for (int64_t& r : repeats) r = g.rng.uniform(0, 3);
      g.arg("repeats", IntList{repeats});
      return;
    }
    case OpKind::Tril:
    case OpKind::Triu: g.arg("diagonal", g.rng.uniform(-3, 3)); return;
    case OpKind::MaskedSelect: g.arg("mask", g.tensor(DType::Bool, g.broadcast_partner(s))); return;
    default: return;  // nonzero
  }
}

}  // namespace

void gen_shape_op(Gen& g, OpKind op) {
  switch (op) {
    case OpKind::Cat:
    case OpKind::Stack: return gen_cat(g, op);
    case OpKind::Split:
    case OpKind::Chunk: return gen_split(g, op);
    case OpKind::OneHot: {
      const int64_t classes = g.rng.uniform(1, 5);
      g.arg("self", g.index_tensor(g.shape(), g.rng.chance(0.03) ? -1 : 0, classes - 1));
      g.arg("num_classes",
            g.rng.chance(0.3) ? -1 : classes + g.rng.uniform(g.rng.chance(0.05) ? -1 : 0, 2));
      return;
    }
    case OpKind::Sort:
    case OpKind::Argsort:
    case OpKind::Topk: return gen_sort(g, op);
    case OpKind::Flip:
    case OpKind::Repeat:
    case OpKind::Tril:
    case OpKind::Triu:
    case OpKind::Nonzero:
    case OpKind::MaskedSelect: return gen_rearrange(g, op);
    default: return gen_indexing(g, op);
  }
}

}  // namespace difftest
