// How the CUDA gemm turns a row-major batched product into cuBLAS calls: which operand layouts
// cuBLAS reads as they are, and the arguments of each strided-batched call. Host code without
// CUDA headers, so tests/cuda/gemm_emulated_test.cpp checks the plans on machines without a GPU.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/array_ref.h"
#include "ember/tensor.h"

namespace ember::cuda {

// Note [Row-major gemm on cuBLAS]
// cuBLAS is column-major. A row-major [rows, cols] matrix with element strides (rs, cs), read
// column-major, is its transpose stored with leading dimension rs when cs == 1 (op N), or the
// matrix itself stored with leading dimension cs when rs == 1 (op T); the stride of a size-1 dim
// is free. Row-major c = a @ b is column-major c^T = b^T a^T, so cuBLAS's first operand is b and
// its (m, n) are our (n, m). Any other layout (stride-2 columns, expanded rows) is copied first.
struct BlasMatrix {
  bool transpose;
  int64_t ld;
};

// The CPU's BLAS rule (cpu/linalg_kernels.cpp, blas_layout): cuBLAS also wants ld >= the stored
// matrix's row count and >= 1.
inline std::optional<BlasMatrix> blas_matrix(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1)))
    return BlasMatrix{false, rows == 1 ? std::max<int64_t>(cols, 1) : rs};
  if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1)))
    return BlasMatrix{true, cols == 1 ? std::max<int64_t>(rows, 1) : cs};
  return std::nullopt;
}

// `t` itself when cuBLAS can read its matrices, else a copy with contiguous matrices. Broadcast
// batch dims (stride 0) are copied once and expanded again, so a weight shared by every batch
// matrix is not materialised batch times.
inline Tensor readable_by_blas(const Tensor& t) {
  if (blas_matrix(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1))) return t;
  Tensor unique = t;
  for (int64_t d = 0; d + 2 < t.dim(); ++d)
    if (t.stride(d) == 0) unique = unique.narrow(d, 0, 1);
  return unique.contiguous().expand(t.sizes());
}

// The cuBLAS calls of one product, in cuBLAS's names: its A is our b, its B our a, its C our c.
// Call i computes `batch` products, matrix p of it at element offsets calls[i] + p * stride_*.
struct GemmPlan {
  bool transa, transb;
  int64_t m, n, k;
  int64_t lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c;
  int64_t batch;
  struct Offsets {
    int64_t a, b, c;
  };
  std::vector<Offsets> calls;
};

namespace detail {

// A batch dim of the product with the element strides of cuBLAS's A, B and C along it.
struct BatchDim {
  int64_t size;
  int64_t stride[3];
};

// The batch dims without size-1 ones, adjacent dims merged where every operand steps through
// them as through one dim (what TensorIter's coalescing does), innermost first.
inline std::vector<BatchDim> coalesce_batch(const std::vector<BatchDim>& outer_first) {
  std::vector<BatchDim> dims;
  for (auto it = outer_first.rbegin(); it != outer_first.rend(); ++it) {
    if (it->size == 1) continue;
    if (!dims.empty()) {
      BatchDim& inner = dims.back();
      bool merge = true;
      for (int o = 0; o < 3; ++o) merge = merge && it->stride[o] == inner.stride[o] * inner.size;
      if (merge) {
        inner.size *= it->size;
        continue;
      }
    }
    dims.push_back(*it);
  }
  return dims;
}

}  // namespace detail

// The plan for c = a @ b with c contiguous of shape `c_sizes` ([batch..., m, n]) and a, b of
// strides `a_strides`, `b_strides` ([batch..., m, k] and [batch..., k, n]) that blas_matrix
// accepts. The largest batch dim left after coalescing is cuBLAS's batch; the others become
// separate calls. nullopt when a size exceeds cuBLAS's int arguments (then the simple kernel
// runs) or k is 0 (cuBLAS would not scale c by beta the way ember's kernels do).
inline std::optional<GemmPlan> plan_gemm(IntArrayRef c_sizes, int64_t k, IntArrayRef a_strides,
                                         IntArrayRef b_strides) {
  const size_t nb = c_sizes.size() - 2;
  const int64_t m = c_sizes[nb], n = c_sizes[nb + 1];
  if (m == 0 || n == 0 || k == 0) return std::nullopt;
  const std::optional<BlasMatrix> la = blas_matrix(m, k, a_strides[nb], a_strides[nb + 1]);
  const std::optional<BlasMatrix> lb = blas_matrix(k, n, b_strides[nb], b_strides[nb + 1]);
  if (!la || !lb) return std::nullopt;

  std::vector<detail::BatchDim> outer_first(nb);
  int64_t c_stride = m * n;
  for (size_t d = nb; d-- > 0;) {
    outer_first[d] = {c_sizes[d], {b_strides[d], a_strides[d], c_stride}};
    c_stride *= c_sizes[d];
  }
  std::vector<detail::BatchDim> dims = detail::coalesce_batch(outer_first);
  auto largest = std::max_element(dims.begin(), dims.end(),
                                  [](const auto& x, const auto& y) { return x.size < y.size; });
  detail::BatchDim batched{1, {0, 0, 0}};
  if (largest != dims.end()) {
    batched = *largest;
    dims.erase(largest);
  }

  GemmPlan plan{.transa = lb->transpose,
                .transb = la->transpose,
                .m = n,
                .n = m,
                .k = k,
                .lda = lb->ld,
                .ldb = la->ld,
                .ldc = n,
                .stride_a = batched.stride[0],
                .stride_b = batched.stride[1],
                .stride_c = batched.stride[2],
                .batch = batched.size,
                .calls = {}};
  for (int64_t v : {plan.m, plan.n, plan.k, plan.lda, plan.ldb, plan.ldc, plan.batch})
    if (v > INT_MAX) return std::nullopt;

  // The other dims' index, odometer style (innermost first), and the offsets it gives.
  std::vector<int64_t> index(dims.size(), 0);
  GemmPlan::Offsets at{0, 0, 0};
  while (true) {
    plan.calls.push_back(at);
    size_t d = 0;
    for (; d < dims.size(); ++d) {
      if (++index[d] < dims[d].size) {
        at = {at.a + dims[d].stride[0], at.b + dims[d].stride[1], at.c + dims[d].stride[2]};
        break;
      }
      at = {at.a - dims[d].stride[0] * (dims[d].size - 1),
            at.b - dims[d].stride[1] * (dims[d].size - 1),
            at.c - dims[d].stride[2] * (dims[d].size - 1)};
      index[d] = 0;
    }
    if (d == dims.size()) break;
  }
  return plan;
}

}  // namespace ember::cuda
