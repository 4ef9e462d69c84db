// Fuzzes sequences of ops. The input decodes into a register file of small tensors (every
// dtype, 0-dim and zero-size shapes, contiguous, offset, strided, permuted and broadcast
// layouts) and a program of up to kMaxOps steps over it: binary, scalar, unary, reduction,
// matrix, join, indexing, sorting, view, cast, in-place and autograd ops. Every step returns or
// throws ember::Error; another exception, a crash, a leak or a sanitizer report is a finding.
// Results must keep their op's cheap promises: broadcast and reduced shapes, bool comparisons,
// in-place ops returning self unchanged in shape and dtype, gradients shaped like their leaves.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/error.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "ember/tensor.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_tensor.h"

namespace ember {
namespace {

using fuzz::FuzzInput;
using fuzz::kMaxNumel;

constexpr size_t kRegisters = 8;
constexpr int kMaxOps = 32;

// ---- the shapes results must have (the ops accepted their arguments, so they are valid)

std::vector<int64_t> broadcast_shape(IntArrayRef a, IntArrayRef b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int64_t wrapped(int64_t d, int64_t ndim) { return d < 0 ? d + std::max<int64_t>(ndim, 1) : d; }

// `dims` reduced (all of them when empty): dropped, or kept as 1 with keepdim.
std::vector<int64_t> reduced_shape(IntArrayRef shape, IntArrayRef dims, bool keepdim) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    bool reduced = dims.empty() || std::any_of(dims.begin(), dims.end(), [&](int64_t d) {
                     return wrapped(d, static_cast<int64_t>(shape.size())) == i;
                   });
    if (!reduced) out.push_back(shape[i]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

void check_shape(const char* op, const Tensor& r, IntArrayRef want) {
  EMBER_FUZZ_CHECK(r.sizes() == want, "[", op, "] result ", r.sizes(), ", expected ", want);
}

// ---- the machine: registers, and the program's operands read from the input

class Machine {
 public:
  explicit Machine(FuzzInput& in) : in_(in) {
    for (Tensor& r : regs_) r = load();
  }

  FuzzInput& in() { return in_; }
  Tensor& operand() { return regs_[in_.in_range<size_t>(0, kRegisters - 1)]; }
  // Results too large to compute with cheaply are dropped (after their checks).
  void store(const Tensor& t) {
    size_t dst = in_.in_range<size_t>(0, kRegisters - 1);
    if (t.defined() && t.numel() <= kMaxNumel) regs_[dst] = t;
  }
  const std::array<Tensor, kRegisters>& registers() const { return regs_; }

  // A new small tensor of any dtype, shape and layout.
  Tensor load() {
    ScalarType dtype = in_.dtype();
    return fuzz::decode_layout(in_, in_.shape(3, 3),
                               [&](int64_t n) { return fuzz::decode_values(in_, dtype, n); });
  }
  Scalar scalar() {
    switch (in_.in_range(0, 3)) {
      case 0: return in_.flag();
      case 1: return in_.arg();
      default: return fuzz::element<double>(in_);
    }
  }
  int64_t dim() { return in_.in_range<int64_t>(-3, 3); }
  std::vector<int64_t> dims() {
    std::vector<int64_t> out(in_.in_range<size_t>(0, 3));
    for (int64_t& d : out) d = dim();
    return out;
  }
  std::optional<ScalarType> maybe_dtype() {
    return in_.flag() ? std::optional<ScalarType>(in_.dtype()) : std::nullopt;
  }

 private:
  FuzzInput& in_;
  std::array<Tensor, kRegisters> regs_;
};

// ---- op families; each reads its operands, runs one op, checks it and stores the result

void binary(Machine& m) {
  constexpr int kFirstBoolResult = 9;  // the comparisons and logical ops
  const Tensor a = m.operand(), b = m.operand();
  int kind = m.in().in_range(0, 18);
  Tensor r;
  switch (kind) {
    case 0: r = add(a, b, m.scalar()); break;
    case 1: r = sub(a, b, m.scalar()); break;
    case 2: r = mul(a, b); break;
    case 3: r = div(a, b); break;
    case 4: r = floor_divide(a, b); break;
    case 5: r = remainder(a, b); break;
    case 6: r = pow(a, b); break;
    case 7: r = maximum(a, b); break;
    case 8: r = minimum(a, b); break;
    case 9: r = eq(a, b); break;
    case 10: r = ne(a, b); break;
    case 11: r = lt(a, b); break;
    case 12: r = le(a, b); break;
    case 13: r = gt(a, b); break;
    case 14: r = ge(a, b); break;
    case 15: r = logical_and(a, b); break;
    case 16: r = logical_or(a, b); break;
    case 17: r = logical_xor(a, b); break;
    default: {
      const Tensor& c = m.operand();
      r = where(c, a, b);
      check_shape("where", r, broadcast_shape(c.sizes(), broadcast_shape(a.sizes(), b.sizes())));
      return m.store(r);
    }
  }
  check_shape("binary", r, broadcast_shape(a.sizes(), b.sizes()));
  EMBER_FUZZ_CHECK(kind < kFirstBoolResult || r.dtype() == kBool, "op ", kind, " gave ", r.dtype());
  m.store(r);
}

void with_scalar(Machine& m) {
  const Tensor a = m.operand();
  Scalar s = m.scalar();
  Tensor r;
  switch (m.in().in_range(0, 9)) {
    case 0: r = add(a, s, m.scalar()); break;  // alpha
    case 1: r = sub(a, s); break;
    case 2: r = mul(a, s); break;
    case 3: r = div(a, s); break;
    case 4: r = floor_divide(a, s); break;
    case 5: r = remainder(a, s); break;
    case 6: r = pow(a, s); break;
    case 7: r = pow(s, a); break;
    case 8: r = lt(a, s); break;
    default: {
      Scalar hi = m.scalar();
      r = clamp(a, m.in().flag() ? std::optional<Scalar>(s) : std::nullopt, hi);
    }
  }
  check_shape("scalar", r, a.sizes());
  m.store(r);
}

void unary(Machine& m) {
  using Fn = Tensor (*)(const Tensor&);
  static constexpr Fn kOps[] = {neg,   abs, sign,  exp,  log,   log1p,      expm1,  sqrt,
                                rsqrt, sin, cos,   tan,  tanh,  sigmoid,    relu,   gelu,
                                silu,  erf, floor, ceil, round, reciprocal, square, logical_not};
  const Tensor a = m.operand();
  Tensor r = m.in().one_of(kOps)(a);
  check_shape("unary", r, a.sizes());
  m.store(r);
}

void reduction(Machine& m) {
  const Tensor a = m.operand();
  std::vector<int64_t> dims = m.dims();
  bool keepdim = m.in().flag();
  Tensor r;
  switch (m.in().in_range(0, 7)) {
    case 0: r = sum(a, dims, keepdim, m.maybe_dtype()); break;
    case 1: r = mean(a, dims, keepdim); break;
    case 2: r = amax(a, dims, keepdim); break;
    case 3: r = amin(a, dims, keepdim); break;
    case 4: r = var(a, dims, m.in().in_range<int64_t>(-1, 2), keepdim); break;
    case 5: r = std(a, dims, m.in().in_range<int64_t>(-1, 2), keepdim); break;
    case 6: r = norm(a, fuzz::element<double>(m.in()), dims, keepdim); break;
    default: r = logsumexp(a, dims, keepdim); break;
  }
  check_shape("reduction", r, reduced_shape(a.sizes(), dims, keepdim));
  m.store(r);
}

void reduction_along(Machine& m) {
  const Tensor a = m.operand();
  int64_t d = m.dim();
  bool keepdim = m.in().flag();
  std::vector<int64_t> want = reduced_shape(a.sizes(), {d}, keepdim);
  Tensor r;
  switch (m.in().in_range(0, 11)) {
    case 0: r = prod(a, d, keepdim, m.maybe_dtype()); break;
    case 1: {
      auto [values, indices] = max(a, d, keepdim);
      check_shape("max", indices, want);
      r = values;
      break;
    }
    case 2: {
      auto [values, indices] = min(a, d, keepdim);
      check_shape("min", indices, want);
      r = values;
      break;
    }
    case 3: r = argmax(a, d, keepdim); break;
    case 4: r = argmin(a, d, keepdim); break;
    case 5: r = all(a, d, keepdim); break;
    case 6: r = any(a, d, keepdim); break;
    case 7:
      r = cumsum(a, d, m.maybe_dtype());
      want = a.sizes().vec();
      break;
    case 8:
      r = softmax(a, d, m.maybe_dtype());
      want = a.sizes().vec();
      break;
    case 9:
      r = log_softmax(a, d);
      want = a.sizes().vec();
      break;
    case 10:
      r = m.in().flag() ? max(a) : min(a);
      want = {};
      break;
    default:
      r = m.in().flag() ? prod(a) : all(a);
      want = {};
      break;
  }
  check_shape("reduction along a dim", r, want);
  m.store(r);
}

void matrix(Machine& m) {
  const Tensor a = m.operand(), b = m.operand();
  Tensor r;
  std::optional<std::vector<int64_t>> want;
  switch (m.in().in_range(0, 6)) {
    case 0: r = matmul(a, b); break;
    case 1:
      r = mm(a, b);
      want = {a.size(0), b.size(1)};
      break;
    case 2:
      r = bmm(a, b);
      want = {a.size(0), a.size(1), b.size(2)};
      break;
    case 3:
      r = mv(a, b);
      want = {a.size(0)};
      break;
    case 4:
      r = dot(a, b);
      want = std::vector<int64_t>{};
      break;
    case 5: {
      const Tensor& self = m.operand();
      Scalar beta = m.scalar(), alpha = m.scalar();
      r = addmm(self, a, b, beta, alpha);
      want = {a.size(0), b.size(1)};
      break;
    }
    default: r = linear(a, b, m.in().flag() ? m.operand() : Tensor()); break;
  }
  if (want) check_shape("matrix product", r, *want);
  m.store(r);
}

void join(Machine& m) {
  std::vector<Tensor> parts(m.in().in_range<size_t>(1, 3));
  for (Tensor& t : parts) t = m.operand();
  int64_t d = m.dim();
  switch (m.in().in_range(0, 3)) {
    case 0: {
      Tensor r = cat(parts, d);
      // 1-D empty tensors only take part in the dtype (PyTorch's legacy rule); cat of nothing
      // but those gives [0].
      auto legacy_empty = [](const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; };
      int64_t along = 0;
      for (const Tensor& t : parts) along += legacy_empty(t) ? 0 : t.size(d);
      if (std::all_of(parts.begin(), parts.end(), legacy_empty)) check_shape("cat", r, {0});
      else EMBER_FUZZ_CHECK(r.size(d) == along, "cat along ", d, " gave ", r.sizes());
      return m.store(r);
    }
    case 1: {
      Tensor r = stack(parts, d);
      EMBER_FUZZ_CHECK(r.size(d) == static_cast<int64_t>(parts.size()), "stack gave ", r.sizes());
      return m.store(r);
    }
    default: {
      const Tensor& x = parts[0];
      // chunk's count stays small: an empty dim gives that many pieces.
      std::vector<Tensor> pieces =
          m.in().flag() ? split(x, m.in().arg(), d) : chunk(x, m.in().in_range<int64_t>(-1, 5), d);
      int64_t total = 0;
      for (const Tensor& p : pieces) total += p.size(d);
      EMBER_FUZZ_CHECK(!pieces.empty() && total == x.size(d), "split pieces of ", x.sizes(),
                       " add up to ", total);
      return m.store(pieces[m.in().in_range<size_t>(0, pieces.size() - 1)]);
    }
  }
}

void indexing(Machine& m) {
  const Tensor a = m.operand(), index = m.operand();
  int64_t d = m.dim();
  Tensor r;
  std::vector<int64_t> want = a.sizes().vec();
  switch (m.in().in_range(0, 7)) {
    case 0:
      r = index_select(a, d, index);
      if (a.dim() > 0) want[wrapped(d, a.dim())] = index.numel();
      break;
    case 1:
      r = gather(a, d, index);
      want = index.sizes().vec();
      break;
    case 2: r = scatter(a, d, index, m.operand()); break;
    case 3: r = scatter(a, d, index, m.scalar()); break;
    case 4: r = scatter_add(a, d, index, m.operand()); break;
    case 5:
      r = masked_fill(a, index, m.scalar());
      want = broadcast_shape(a.sizes(), index.sizes());
      break;
    case 6: {
      int64_t classes = m.in().in_range<int64_t>(-2, 6);
      // Inferred from a large value, the class count would make a legal but gigabyte-sized
      // result (and the fuzzer's memory limit fail): keep the tensors small.
      if (classes == -1 && a.dtype() == kInt64 && a.numel() > 0 && amax(a).item<int64_t>() > 64)
        classes = 6;
      r = one_hot(a, classes);
      want.push_back(r.size(-1));
      break;
    }
    default: {
      bool descending = m.in().flag();
      auto [values, indices] = sort(a, d, descending);
      check_shape("sort", indices, want);
      EMBER_FUZZ_CHECK(indices.dtype() == kInt64, "sort indices are ", indices.dtype());
      r = values;
      if (m.in().flag()) {
        int64_t k = m.in().in_range<int64_t>(-1, 4);
        bool largest = m.in().flag(), sorted = m.in().flag();
        auto [top, top_indices] = topk(a, k, d, largest, sorted);
        std::vector<int64_t> top_shape = want;  // k along d; a 0-dim input stays 0-dim
        if (a.dim() > 0) top_shape[wrapped(d, a.dim())] = k;
        check_shape("topk", top, top_shape);
        check_shape("topk", top_indices, top_shape);
      }
    }
  }
  check_shape("indexing", r, want);
  m.store(r);
}

// Views and copies, so later ops meet non-contiguous and aliasing operands.
void reshaping(Machine& m) {
  const Tensor a = m.operand();
  Tensor r;
  switch (m.in().in_range(0, 7)) {
    case 0: {
      int64_t d0 = m.dim(), d1 = m.dim();
      r = a.transpose(d0, d1);
      break;
    }
    case 1: r = a.reshape(m.dims()); break;
    case 2: r = a.expand(broadcast_shape(a.sizes(), m.operand().sizes())); break;
    case 3: {
      int64_t d = m.dim(), start = m.in().arg(), end = m.in().arg();
      r = a.slice(d, start, end, m.in().in_range<int64_t>(1, 3));
      break;
    }
    case 4: r = a.unsqueeze(m.dim()); break;
    case 5:
      r = a.contiguous();
      EMBER_FUZZ_CHECK(r.is_contiguous(), "contiguous() of ", a.sizes(), " strides ", a.strides());
      break;
    case 6: {
      ScalarType dtype = m.in().dtype();
      r = a.to(dtype, false, m.in().flag());
      break;
    }
    default: r = m.load(); break;
  }
  m.store(r);
}

// In-place ops return self and keep its shape, dtype and storage.
void in_place(Machine& m) {
  Tensor& self = m.operand();
  const Tensor before = self, other = m.operand();
  Tensor* result = nullptr;
  switch (m.in().in_range(0, 11)) {
    case 0: result = &self.add_(other, m.scalar()); break;
    case 1: result = &self.sub_(other); break;
    case 2: result = &self.mul_(other); break;
    case 3: result = &self.div_(other); break;
    case 4: result = &self.add_(m.scalar()); break;
    case 5: result = &self.mul_(m.scalar()); break;
    case 6: result = &self.fill_(m.scalar()); break;
    case 7: result = &self.zero_(); break;
    case 8: {
      Scalar lo = m.scalar(), hi = m.scalar();
      result = &self.clamp_(lo, hi);
      break;
    }
    case 9: result = &self.masked_fill_(other, m.scalar()); break;
    case 10: result = &self.copy_(other); break;
    default: result = &add_out(self, other, m.operand()); break;
  }
  EMBER_FUZZ_CHECK(result == &self && self.is_same(before), "an in-place op replaced self");
  EMBER_FUZZ_CHECK(self.sizes() == before.sizes() && self.dtype() == before.dtype(),
                   "an in-place op changed self");
}

// Autograd: leaves that require grad, backward through whatever the program built from them.
void autograd_step(Machine& m) {
  Tensor& a = m.operand();
  if (m.in().flag()) {
    a.requires_grad_(m.in().flag());
    return;
  }
  sum(a).backward(Tensor(), m.in().flag());
  for (const Tensor& t : m.registers()) {
    if (!t.is_leaf() || !t.grad().defined()) continue;
    EMBER_FUZZ_CHECK(t.grad().sizes() == t.sizes(), "gradient ", t.grad().sizes(), " of a leaf ",
                     t.sizes());
  }
  if (a.is_leaf() && a.grad().defined()) m.store(a.grad());
}

void run(Machine& m) {
  using Family = void (*)(Machine&);
  static constexpr Family kFamilies[] = {binary,          with_scalar, unary,        reduction,
                                         reduction_along, matrix,      join,         indexing,
                                         reshaping,       in_place,    autograd_step};
  for (int i = 0; i < kMaxOps && !m.in().exhausted(); ++i) {
    try {
      m.in().one_of(kFamilies)(m);
    } catch (const Error&) {
    }
  }
}

}  // namespace
}  // namespace ember

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::FuzzInput in(data, size);
  try {
    ember::Machine machine(in);
    ember::run(machine);
  } catch (const ember::Error&) {  // a register's layout was refused
  }
  return 0;
}
