// TensorIter construction: device check, broadcasting, input conversion, output allocation and
// dimension coalescing (see tensor_iter.h).
#include "kernels/tensor_iter.h"

#include <algorithm>

#include "core/check.h"
#include "core/stride_order.h"
#include "kernels/elementwise_stubs.h"
#include "ops/promotion.h"

namespace ember::kernels {

bool TensorIter::is_contiguous() const {
  if (ndim != 1) return numel <= 1;
  for (int k = 0; k < ntensors; ++k)
    if (strides[k][0] != static_cast<int64_t>(elementSize(dtypes[k]))) return false;
  return true;
}

Device common_device(const char* op, const Tensor* const* tensors, const char* const* names,
                     int n) {
  // PyTorch's rule: the first non-CPU operand decides; a 0-dim CPU tensor may join a CUDA op.
  Device common = Device::cpu();
  for (int i = 0; i < n; ++i) {
    if (tensors[i]->defined() && !tensors[i]->is_cpu()) {
      common = tensors[i]->device();
      break;
    }
  }
  for (int i = 0; i < n; ++i) {
    const Tensor* t = tensors[i];
    const char* name = names[i];
    if (!t->defined() || t->device() == common) continue;
    if (t->is_cpu() && t->dim() == 0) continue;  // CPU scalars are allowed
    Device other = t->device();
    detail::fail<ValueError>(
        "Expected all tensors to be on the same device, but found at least two "
        "devices, ",
        common, " and ", other, "! ([", op, "] argument '", name, "' is on ", other,
        "; move it with .to(", common, "))");
  }
  return common;
}

void check_no_internal_overlap(const char* op, const Tensor& written) {
  if (!written.defined()) return;  // the op reports an undefined operand itself
  const detail::TensorImpl& w = *detail::impl_of(written);
  if (w.contiguous || w.numel == 0) return;  // no two elements in one place
  for (int d = 0; d < w.ndim; ++d) {
    EMBER_CHECK_T(ValueError, w.strides[d] != 0 || w.sizes[d] <= 1, "[", op,
                  "] unsupported operation: more than one element of the written-to tensor refers "
                  "to a single memory location. Please clone() the tensor before performing the "
                  "operation.");
  }
}

namespace {

// PyTorch's assert_no_partial_overlap and message.
void check_no_partial_overlap(const char* op, const Tensor& written, const Tensor& read) {
  if (!written.defined() || !read.defined()) return;  // the op reports undefined operands itself
  const detail::TensorImpl& w = *detail::impl_of(written);
  const detail::TensorImpl& r = *detail::impl_of(read);
  if (&w == &r || w.storage != r.storage || w.numel == 0 || r.numel == 0) return;
  if (!detail::is_non_overlapping_and_dense(w) || !detail::is_non_overlapping_and_dense(r)) return;
  const auto w_size = static_cast<int64_t>(elementSize(w.dtype));
  const auto r_size = static_cast<int64_t>(elementSize(r.dtype));
  const int64_t w_begin = w.offset * w_size, w_end = w_begin + w.numel * w_size;
  const int64_t r_begin = r.offset * r_size, r_end = r_begin + r.numel * r_size;
  if (w_begin == r_begin && w_end == r_end && w.stride_ref() == r.stride_ref()) return;  // in place
  EMBER_CHECK_T(ValueError, w_end <= r_begin || r_end <= w_begin, "[", op,
                "] unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.");
}

}  // namespace

void check_mem_overlap(const char* op, const Tensor& out, std::initializer_list<Tensor> inputs) {
  check_no_internal_overlap(op, out);
  for (const Tensor& t : inputs) check_no_partial_overlap(op, out, t);
}

void broadcast_shapes(const char* op, IntArrayRef a, IntArrayRef b, int64_t* out, int* out_ndim) {
  int nd = static_cast<int>(std::max(a.size(), b.size()));
  // From the last dim, as PyTorch, so that a mismatch names the same dim as its message does.
  for (int i = nd - 1; i >= 0; --i) {
    int ia = static_cast<int>(a.size()) - nd + i, ib = static_cast<int>(b.size()) - nd + i;
    int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
    EMBER_CHECK_T(ValueError, sa == sb || sa == 1 || sb == 1, "[", op, "] The size of tensor a (",
                  sa, ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i,
                  " (shapes ", a, " and ", b, " cannot be broadcast together)");
    out[i] = sa == 1 ? sb : sa;
  }
  *out_ndim = nd;
}

namespace {

// Merges neighbouring dims that every operand walks as one (PyTorch's coalesce_dimensions).
void coalesce(TensorIter& it) {
  if (it.ndim <= 1) return;
  int prev = 0;
  for (int d = 1; d < it.ndim; ++d) {
    bool can_merge = it.shape[prev] == 1 || it.shape[d] == 1;
    if (!can_merge) {
      can_merge = true;
      for (int k = 0; k < it.ntensors; ++k)
        can_merge = can_merge && it.strides[k][prev] * it.shape[prev] == it.strides[k][d];
    }
    if (can_merge) {
      if (it.shape[prev] == 1)
        for (int k = 0; k < it.ntensors; ++k) it.strides[k][prev] = it.strides[k][d];
      it.shape[prev] *= it.shape[d];
    } else {
      ++prev;
      it.shape[prev] = it.shape[d];
      for (int k = 0; k < it.ntensors; ++k) it.strides[k][prev] = it.strides[k][d];
    }
  }
  it.ndim = prev + 1;
}

// Byte strides of `t` seen through the broadcast shape, innermost dim first.
void set_strides(TensorIter& it, int k, const detail::TensorImpl& t, const int64_t* shape, int nd) {
  int64_t esize = static_cast<int64_t>(elementSize(t.dtype));
  for (int i = 0; i < nd; ++i) {
    int src = t.ndim - nd + i;  // aligned from the right
    int dst = nd - 1 - i;
    it.strides[k][dst] = (src >= 0 && t.sizes[src] == shape[i]) ? t.strides[src] * esize : 0;
  }
}

// A new output of the broadcast shape laid out densely with its dims in `order` (TensorIter's
// numbering, fastest first).
std::shared_ptr<detail::TensorImpl> new_output_in_order(const int64_t* shape, int nd,
                                                        const int* order, ScalarType dtype,
                                                        Device device) {
  int tensor_order[kMaxDims];
  for (int i = 0; i < nd; ++i) tensor_order[i] = nd - 1 - order[i];
  int64_t strides[kMaxDims];
  detail::dense_strides(IntArrayRef(shape, nd), tensor_order, strides);
  return detail::empty_strided_impl(IntArrayRef(shape, nd), IntArrayRef(strides, nd), dtype,
                                    device);
}

// Walks the dims in `order` (fastest first), so that loops and coalescing follow memory.
void permute_dims(TensorIter& it, const int* order) {
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOperands][kMaxDims];
  std::copy_n(it.shape, it.ndim, shape);
  for (int k = 0; k < it.ntensors; ++k) std::copy_n(it.strides[k], it.ndim, strides[k]);
  for (int i = 0; i < it.ndim; ++i) {
    it.shape[i] = shape[order[i]];
    for (int k = 0; k < it.ntensors; ++k) it.strides[k][i] = strides[k][order[i]];
  }
}

}  // namespace

namespace {

// Note [Elementwise fast path]
// Most ops see inputs of one shape and dtype, dense, on one device, with a fresh output: then
// the whole geometry is one dimension of numel elements, and the general broadcasting and
// coalescing work (about half the cost of a small op) can be skipped.
bool try_fast_path(TensorIter& it, const IterSpec& spec, const Tensor& out,
                   std::initializer_list<Tensor> inputs) {
  if (out.defined() || inputs.size() == 0) return false;
  if (!inputs.begin()->defined()) return false;
  const detail::TensorImpl& first = *detail::impl_of(*inputs.begin());
  for (const Tensor& t : inputs) {
    if (!t.defined()) return false;  // the general path names it
    const detail::TensorImpl& impl = *detail::impl_of(t);
    if (!impl.contiguous || impl.storage->device != first.storage->device ||
        (spec.convert_inputs && impl.dtype != spec.compute_dtype) || impl.ndim != first.ndim)
      return false;
    for (int d = 0; d < impl.ndim; ++d)
      if (impl.sizes[d] != first.sizes[d]) return false;
  }
  it.device = first.storage->device;
  it.operands[0] = Tensor(detail::empty_impl(first.shape(), spec.output_dtype, it.device));
  it.ntensors = 1;
  for (const Tensor& t : inputs) it.operands[it.ntensors++] = t;
  it.numel = first.numel;
  it.ndim = 1;
  it.shape[0] = first.numel;
  // GCC unrolls this loop of at most kMaxOperands steps by itself only while it holds no call,
  // and data() holds one, to wait for a pending write (Note [Safe non-blocking copies to the
  // host]); unrolled, a small op saves about 15 instructions.
#pragma GCC unroll 4
  for (int k = 0; k < it.ntensors; ++k) {
    const detail::TensorImpl& impl = *detail::impl_of(it.operands[k]);
    it.data[k] = impl.data();
    it.dtypes[k] = impl.dtype;
    it.strides[k][0] = static_cast<int64_t>(elementSize(impl.dtype));
  }
  return true;
}

}  // namespace

TensorIter make_iter(const IterSpec& spec, const Tensor& out,
                     std::initializer_list<Tensor> inputs) {
  TensorIter it;
  if (try_fast_path(it, spec, out, inputs)) return it;
  {
    // Operand 0 is the output; the inputs follow with the names the op gave them.
    static constexpr const char* kDefaultNames[kMaxOperands] = {"out", "self", "other", "other"};
    const Tensor* all[kMaxOperands] = {&out};
    const char* names[kMaxOperands] = {"out"};
    int n = 1;
    for (const Tensor& t : inputs) {
      all[n] = &t;
      names[n] = n - 1 < static_cast<int>(spec.names.size()) ? spec.names.begin()[n - 1]
                                                             : kDefaultNames[n];
      EMBER_CHECK_T(ValueError, t.defined(), "[", spec.op, "] argument '", names[n],
                    "' is an undefined tensor ", detail::kUndefinedTensorHint);
      ++n;
    }
    it.device = common_device(spec.op, all, names, n);
  }

  // The broadcast shape of the output (when given) and the inputs.
  int64_t shape[kMaxDims];
  const bool has_out = out.defined();
  IntArrayRef first = has_out ? out.sizes() : inputs.begin()->sizes();
  int nd = static_cast<int>(first.size());
  std::copy(first.begin(), first.end(), shape);
  for (const Tensor& t : inputs) {
    if (has_out || &t != inputs.begin()) {
      int64_t next[kMaxDims];
      broadcast_shapes(spec.op, IntArrayRef(shape, nd), t.sizes(), next, &nd);
      std::copy(next, next + nd, shape);
    }
  }

  Tensor* converted = it.operands;
  int k = 1;
  for (const Tensor& t : inputs) {
    Tensor in = t;
    if (spec.convert_inputs && in.scalar_type() != spec.compute_dtype)
      in = in.to(spec.compute_dtype);
    if (in.device() != it.device)  // a CPU scalar joining a GPU op, without a host wait
      in = ops::scalar_to_tensor(in.item(), in.scalar_type(), it.device);
    converted[k++] = std::move(in);
  }

  if (has_out) {
    EMBER_CHECK_T(ValueError, out.sizes() == IntArrayRef(shape, nd), "[", spec.op,
                  "] output with shape ", out.sizes(), " doesn't match the broadcast shape ",
                  IntArrayRef(shape, nd));
    if (spec.check_mem_overlap) check_mem_overlap(spec.op, out, inputs);
    converted[0] = out;
  }

  it.ntensors = k;
  it.ndim = nd;
  for (int i = 0; i < nd; ++i) it.shape[i] = shape[nd - 1 - i];
  for (int i = 1; i < k; ++i) set_strides(it, i, *detail::impl_of(converted[i]), shape, nd);
  // Note [Preserved strides]: a new output is laid out in the order the inputs' strides agree
  // on, and the loop walks that order; row-major inputs keep the row-major order without asking.
  // A given output keeps today's loop order.
  bool reordered = false;
  int order[kMaxDims];
  if (!has_out) {
    for (int i = 1; i < k && !reordered; ++i)
      reordered = !detail::impl_of(converted[i])->contiguous;
    if (reordered) detail::stride_order(it.shape, nd, it.strides + 1, k - 1, order);
    const IntArrayRef out_shape(shape, nd);
    converted[0] =
        Tensor(reordered ? new_output_in_order(shape, nd, order, spec.output_dtype, it.device)
                         : detail::empty_impl(out_shape, spec.output_dtype, it.device));
  }
  set_strides(it, 0, *detail::impl_of(converted[0]), shape, nd);
  it.numel = converted[0].numel();
  for (int i = 0; i < k; ++i) {
    const detail::TensorImpl& impl = *detail::impl_of(converted[i]);
    it.data[i] = impl.data();
    it.dtypes[i] = impl.dtype;
  }
  if (reordered) permute_dims(it, order);
  coalesce(it);
  if (it.ndim == 0) {  // 0-dim: one element
    it.ndim = 1;
    it.shape[0] = 1;
    for (int i = 0; i < k; ++i) it.strides[i][0] = 0;
  }
  return it;
}

}  // namespace ember::kernels
