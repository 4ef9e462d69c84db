// Fuzzes the arguments of the view ops. The input decodes into a small int64 tensor whose
// elements are their own storage positions (an arange, seen through an offset, strides, a
// permutation or a broadcast), then into a chain of view, reshape, permute, expand, narrow,
// select, slice, index, transpose, squeeze, unsqueeze and flatten calls whose arguments include
// negative, huge and out-of-range values. Every call returns a tensor or throws ember::Error. A
// returned view must have the geometry its op promises, lie inside its storage, and read back
// through ember's copy kernel as exactly the storage positions its geometry names.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "ember/error.h"
#include "ember/factory.h"
#include "ember/tensor.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_tensor.h"

namespace ember {
namespace {

using namespace indexing;

using fuzz::FuzzInput;
using fuzz::kMaxNumel;

constexpr int kMaxSteps = 16;

// A dim that an op accepted, wrapped as the op wrapped it (a 0-dim tensor takes 0 and -1).
int64_t wrapped(int64_t d, int64_t ndim) { return d < 0 ? d + std::max<int64_t>(ndim, 1) : d; }

std::vector<int64_t> without(IntArrayRef values, int64_t i) {
  std::vector<int64_t> out = values.vec();
  out.erase(out.begin() + i);
  return out;
}

// Every element of a view lies in [0, storage_numel): offset + sum((size - 1) * stride) must not
// pass the end, computed without overflow.
void check_inside(const Tensor& t, int64_t storage_numel) {
  if (t.numel() == 0) return;
  int64_t last = t.storage_offset();
  bool inside = last >= 0;
  for (int64_t d = 0; d < t.dim() && inside; ++d) {
    int64_t span = 0;
    inside = t.stride(d) >= 0 && !__builtin_mul_overflow(t.size(d) - 1, t.stride(d), &span) &&
             !__builtin_add_overflow(last, span, &last);
  }
  EMBER_FUZZ_CHECK(inside && last < storage_numel, "sizes ", t.sizes(), ", strides ", t.strides(),
                   ", offset ", t.storage_offset(), " reach outside a storage of ", storage_numel,
                   " elements");
}

// Read through the copy kernel, element i (row-major) must be offset + sum(index * stride).
void check_elements(const Tensor& t) {
  if (t.numel() > kMaxNumel) return;
  std::vector<int64_t> got = t.to_vector<int64_t>();
  std::vector<int64_t> index(static_cast<size_t>(t.dim()), 0);
  for (size_t k = 0; k < got.size(); ++k) {
    int64_t want = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) want += index[d] * t.stride(d);
    EMBER_FUZZ_CHECK(got[k] == want, "element ", k, " of sizes ", t.sizes(), ", strides ",
                     t.strides(), ", offset ", t.storage_offset(), " reads ", got[k],
                     " instead of ", want);
    for (int64_t d = t.dim() - 1; d >= 0 && ++index[d] == t.size(d); --d) index[d] = 0;
  }
}

// ---- arguments: mostly near-valid (what real code passes), otherwise anything

std::vector<int64_t> permutation(FuzzInput& in, int64_t ndim) {
  std::vector<int64_t> dims(static_cast<size_t>(ndim));
  std::iota(dims.begin(), dims.end(), 0);
  for (size_t i = dims.size(); i > 1; --i)
    std::swap(dims[i - 1], dims[in.in_range<size_t>(0, i - 1)]);
  for (int64_t& d : dims) d -= in.flag() ? ndim : 0;
  return dims;
}

// x's shape with a dim inferred (-1), two dims merged, a dim split or a 1 inserted.
std::vector<int64_t> reshape_of(FuzzInput& in, IntArrayRef sizes) {
  std::vector<int64_t> shape = sizes.vec();
  size_t i = in.in_range<size_t>(0, shape.size());
  switch (in.in_range(0, 3)) {
    case 0:
      if (i < shape.size()) shape[i] = -1;
      break;
    case 1:
      if (i + 1 < shape.size()) {
        shape[i] *= shape[i + 1];
        shape.erase(shape.begin() + static_cast<int64_t>(i) + 1);
      }
      break;
    case 2:
      if (i < shape.size() && shape[i] % 2 == 0) {
        shape[i] /= 2;
        shape.insert(shape.begin() + static_cast<int64_t>(i), 2);
      }
      break;
    default: shape.insert(shape.begin() + static_cast<int64_t>(i), 1);
  }
  return shape;
}

// x's shape with new leading dims, size-1 dims broadcast and dims kept as -1.
std::vector<int64_t> expansion_of(FuzzInput& in, IntArrayRef sizes) {
  std::vector<int64_t> shape = in.shape(2, 3);
  for (int64_t s : sizes) shape.push_back(in.flag() ? -1 : s == 1 ? in.in_range<int64_t>(0, 4) : s);
  return shape;
}

std::optional<int64_t> maybe_arg(FuzzInput& in) {
  return in.flag() ? std::optional<int64_t>(in.arg()) : std::nullopt;
}

TensorIndex index_item(FuzzInput& in) {
  switch (in.in_range(0, 3)) {
    case 0: {
      std::optional<int64_t> start = maybe_arg(in), stop = maybe_arg(in);
      return Slice(start, stop, in.flag() ? 1 : in.arg());
    }
    case 1: return None;
    case 2: return Ellipsis;
    default: return in.arg();
  }
}

// ---- one call and what its op promises beyond every view's invariants

void check_same_elements(const Tensor& x, const Tensor& r) {
  if (x.numel() > kMaxNumel) return;
  EMBER_FUZZ_CHECK(r.to_vector<int64_t>() == x.to_vector<int64_t>(), "reshape of ", x.sizes(),
                   " to ", r.sizes(), " reordered the elements");
}

Tensor reshape_step(FuzzInput& in, const Tensor& x) {
  std::vector<int64_t> shape = in.flag() ? reshape_of(in, x.sizes()) : in.args(in.flag() ? 5 : 17);
  bool view = in.flag();
  Tensor r = view ? x.view(shape) : x.reshape(shape);
  EMBER_FUZZ_CHECK(r.dim() == static_cast<int64_t>(shape.size()) && r.numel() == x.numel(),
                   x.sizes(), " to ", IntArrayRef(shape), " gave ", r.sizes());
  for (size_t i = 0; i < shape.size(); ++i)
    EMBER_FUZZ_CHECK(shape[i] == -1 || r.size(static_cast<int64_t>(i)) == shape[i], x.sizes(),
                     " to ", IntArrayRef(shape), " gave ", r.sizes());
  EMBER_FUZZ_CHECK(!view || r.is_alias_of(x), "view() copied");
  check_same_elements(x, r);
  return r;
}

Tensor permute_step(FuzzInput& in, const Tensor& x) {
  std::vector<int64_t> dims = in.flag() ? permutation(in, x.dim()) : in.args(5);
  Tensor r = x.permute(dims);
  EMBER_FUZZ_CHECK(r.dim() == x.dim() && r.storage_offset() == x.storage_offset(), "permute");
  for (int64_t i = 0; i < r.dim(); ++i) {
    int64_t d = wrapped(dims[i], x.dim());
    EMBER_FUZZ_CHECK(r.size(i) == x.size(d) && r.stride(i) == x.stride(d), "permute ",
                     IntArrayRef(dims), " of ", x.sizes(), " gave ", r.sizes());
  }
  return r;
}

Tensor expand_step(FuzzInput& in, const Tensor& x) {
  std::vector<int64_t> shape = in.flag() ? expansion_of(in, x.sizes()) : in.args(6);
  Tensor r = x.expand(shape);
  const int64_t lead = r.dim() - x.dim();
  EMBER_FUZZ_CHECK(r.dim() == static_cast<int64_t>(shape.size()) && lead >= 0, "expand");
  for (int64_t i = 0; i < r.dim(); ++i) {
    int64_t have = i < lead ? 1 : x.size(i - lead);
    int64_t want = shape[i] == -1 ? have : shape[i];
    int64_t stride = i >= lead && have == want ? x.stride(i - lead) : 0;
    EMBER_FUZZ_CHECK(r.size(i) == want && r.stride(i) == stride, "expand of ", x.sizes(), " to ",
                     IntArrayRef(shape), " gave sizes ", r.sizes(), ", strides ", r.strides());
  }
  return r;
}

// narrow(d, start, length) and select(d, index) keep the other dims and move the offset to
// `start` along d.
void check_cut(const Tensor& x, const Tensor& r, int64_t d, int64_t start, bool keeps_dim) {
  std::vector<int64_t> x_sizes = x.sizes().vec(), r_sizes = r.sizes().vec();
  std::vector<int64_t> x_strides = x.strides().vec(), r_strides = r.strides().vec();
  if (keeps_dim) {
    r_sizes = without(r_sizes, d);
    r_strides = without(r_strides, d);
  }
  EMBER_FUZZ_CHECK(r_sizes == without(x_sizes, d) && r_strides == without(x_strides, d),
                   "cutting dim ", d, " of ", x.sizes(), " changed other dims: ", r.sizes());
  EMBER_FUZZ_CHECK(r.numel() == 0 || r.storage_offset() == x.storage_offset() + start * x.stride(d),
                   "cutting dim ", d, " of ", x.sizes(), " at ", start, " gave offset ",
                   r.storage_offset());
}

Tensor narrow_step(FuzzInput& in, const Tensor& x) {
  int64_t dim = in.arg(), start = in.arg(), length = in.arg();
  Tensor r = x.narrow(dim, start, length);
  int64_t d = wrapped(dim, x.dim());
  EMBER_FUZZ_CHECK(r.size(d) == length, "narrow to ", length, " gave ", r.sizes());
  check_cut(x, r, d, start < 0 ? start + x.size(d) : start, true);
  return r;
}

Tensor select_step(FuzzInput& in, const Tensor& x) {
  bool first_dim = in.flag();  // x[index] is select(0, index)
  int64_t dim = first_dim ? 0 : in.arg(), index = in.arg();
  Tensor r = first_dim ? x[index] : x.select(dim, index);
  int64_t d = wrapped(dim, x.dim());
  check_cut(x, r, d, index < 0 ? index + x.size(d) : index, false);
  return r;
}

Tensor slice_step(FuzzInput& in, const Tensor& x) {
  int64_t dim = in.arg();
  std::optional<int64_t> start = maybe_arg(in), end = maybe_arg(in);
  int64_t step = in.flag() ? in.in_range<int64_t>(1, 3) : in.arg();
  Tensor r = x.slice(dim, start, end, step);
  // Python's rule: negative bounds count from the end, then both are clamped to [0, n].
  int64_t d = wrapped(dim, x.dim()), n = x.size(d);
  int64_t s = start.value_or(0), e = end.value_or(n);
  s = std::clamp<int64_t>(s < 0 ? s + n : s, 0, n);
  e = std::clamp<int64_t>(e < 0 ? e + n : e, s, n);
  int64_t length = e == s ? 0 : (e - s - 1) / step + 1;
  EMBER_FUZZ_CHECK(r.size(d) == length, "slice [", s, ":", e, ":", step, "] of ", n, " gave ",
                   r.size(d));
  int64_t stride = 0;
  EMBER_FUZZ_CHECK(
      length <= 1 || (!__builtin_mul_overflow(x.stride(d), step, &stride) && r.stride(d) == stride),
      "slice step ", step, " of stride ", x.stride(d), " gave stride ", r.stride(d));
  // Only a view with elements has a meaningful offset (and then x's geometry is in bounds).
  EMBER_FUZZ_CHECK(r.numel() == 0 || r.storage_offset() == x.storage_offset() + s * x.stride(d),
                   "slice from ", s, " gave offset ", r.storage_offset());
  return r;
}

Tensor index_step(FuzzInput& in, const Tensor& x) {
  std::vector<TensorIndex> items(in.in_range<size_t>(1, 4), TensorIndex(0));
  int64_t dims = x.dim();
  for (TensorIndex& item : items) {
    item = index_item(in);
    if (item.kind() == TensorIndex::Kind::None) ++dims;     // a new dim of size 1
    if (item.kind() == TensorIndex::Kind::Integer) --dims;  // a dim selected away
  }
  Tensor r = x.index(items);
  EMBER_FUZZ_CHECK(r.dim() == dims, "index gave ", r.dim(), " dims, expected ", dims);
  return r;
}

Tensor reorder_step(FuzzInput& in, const Tensor& x) {
  switch (in.in_range(0, 5)) {
    case 0: {
      int64_t d0 = in.arg(), d1 = in.arg();
      Tensor r = x.transpose(d0, d1);
      if (x.dim() == 0) return r;
      int64_t a = wrapped(d0, x.dim()), b = wrapped(d1, x.dim());
      EMBER_FUZZ_CHECK(r.size(a) == x.size(b) && r.stride(a) == x.stride(b), "transpose(", d0, ", ",
                       d1, ") of ", x.sizes(), " gave ", r.sizes());
      return r;
    }
    case 1: return x.t();
    case 2: return x.squeeze();
    case 3: return x.squeeze(in.arg());
    case 4: {
      int64_t d = in.arg();
      Tensor r = x.unsqueeze(d);
      EMBER_FUZZ_CHECK(r.dim() == x.dim() + 1 && r.size(d) == 1, "unsqueeze(", d, ") of ",
                       x.sizes(), " gave ", r.sizes());
      return r;
    }
    default: {
      int64_t start = in.arg(), end = in.arg();
      return x.flatten(start, end);
    }
  }
}

Tensor step(FuzzInput& in, const Tensor& x) {
  switch (in.in_range(0, 7)) {
    case 0: return reshape_step(in, x);
    case 1: return permute_step(in, x);
    case 2: return expand_step(in, x);
    case 3: return narrow_step(in, x);
    case 4: return select_step(in, x);
    case 5: return slice_step(in, x);
    case 6: return index_step(in, x);
    default: return reorder_step(in, x);
  }
}

void run(FuzzInput& in) {
  Tensor storage;
  Tensor x = fuzz::decode_layout(in, fuzz::small_shape(in), [&](int64_t n) {
    storage = arange(n, kInt64);
    return storage;
  });
  const int64_t storage_numel = storage.numel();
  for (int i = 0; i < kMaxSteps && !in.exhausted(); ++i) {
    try {
      Tensor r = step(in, x);
      EMBER_FUZZ_CHECK(r.numel() == fuzz::numel_of(r.sizes()), "numel ", r.numel(), " of ",
                       r.sizes());
      if (!r.is_alias_of(storage)) continue;  // a reshape that copied: checked, not chained on
      check_inside(r, storage_numel);
      check_elements(r);
      if (r.numel() <= kMaxNumel) x = r;
    } catch (const Error&) {
    }
  }
}

}  // namespace
}  // namespace ember

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::FuzzInput in(data, size);
  try {
    ember::run(in);
  } catch (const ember::Error&) {  // the starting tensor's shape was refused
  }
  return 0;
}
