// CPU gemm: float32/float64 through BLAS, one call per batch matrix with strided operands passed
// as BLAS transposes; every other dtype (and all of them in a build without BLAS) through a
// blocked loop that accumulates in opmath_t (float for half and bfloat16).
#include <algorithm>
#include <climits>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <vector>

#include "cpu/kernels.h"
#include "core/tensor_impl.h"
#include "cpu/parallel.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/linalg_stubs.h"

#ifdef EMBER_HAVE_BLAS
// The Fortran interface: every BLAS exports it, so no cblas.h has to be found.
extern "C" {
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
}
#endif

namespace ember::cpu {
namespace {

// A matrix operand of the batched product: its elements, the offset of each batch's matrix
// (batch dims may be broadcast with stride 0) and its row and column strides, all in elements.
template <class T>
struct Operand {
  const T* data;
  std::vector<int64_t> offsets;
  int64_t rs, cs;

  explicit Operand(const Tensor& t)
      : data(t.data_ptr<T>()), offsets(batch_offsets(t)), rs(t.stride(-2)), cs(t.stride(-1)) {}
  const T* matrix(int64_t i) const { return data + offsets[static_cast<size_t>(i)]; }

  static std::vector<int64_t> batch_offsets(const Tensor& t) {
    int nb = static_cast<int>(t.dim()) - 2;
    int64_t count = 1;
    for (int d = 0; d < nb; ++d) count *= t.size(d);
    std::vector<int64_t> offsets(static_cast<size_t>(count));
    int64_t index[detail::kMaxDims] = {};
    int64_t offset = 0;
    for (int64_t& out : offsets) {
      out = offset;
      for (int d = nb - 1; d >= 0; --d) {  // odometer step over the batch dims
        if (++index[d] < t.size(d)) {
          offset += t.stride(d);
          break;
        }
        offset -= t.stride(d) * (t.size(d) - 1);
        index[d] = 0;
      }
    }
    return offsets;
  }
};

// Output tiles of the loop: kRows rows reuse each kCols-long slice of a row of b from L1, and the
// kRows x kCols accumulator stays in cache for the whole k loop, so b is streamed once per
// kRows rows of c instead of once per row.
constexpr int64_t kRows = 16, kCols = 256;

template <class T>
void gemm_loop(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha_s, Scalar beta_s) {
  using M = kernels::opmath_t<T>;
  const Operand<T> A(a), B(b);
  T* C = c.data_ptr<T>();
  const int64_t m = c.size(-2), n = c.size(-1), k = a.size(-1), batch = c.numel() / (m * n);
  const M alpha = alpha_s.to<M>(), beta = beta_s.to<M>();
  const int64_t row_tiles = (m + kRows - 1) / kRows, col_tiles = (n + kCols - 1) / kCols;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / (kRows * kCols * std::max<int64_t>(k, 1)));
  parallel_for(batch * row_tiles * col_tiles, grain, [&](int64_t begin, int64_t end) {
    std::vector<M> acc(static_cast<size_t>(kRows * kCols));
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t j0 = tile % col_tiles * kCols, i0 = tile / col_tiles % row_tiles * kRows;
      const int64_t p = tile / (col_tiles * row_tiles);
      const int64_t rows = std::min(kRows, m - i0), cols = std::min(kCols, n - j0);
      const T* a0 = A.matrix(p) + i0 * A.rs;
      const T* b0 = B.matrix(p) + j0 * B.cs;
      std::fill(acc.begin(), acc.end(), M(0));
      for (int64_t q = 0; q < k; ++q) {
        const T* brow = b0 + q * B.rs;
        for (int64_t i = 0; i < rows; ++i) {
          const M av = static_cast<M>(a0[i * A.rs + q * A.cs]);
          M* arow = acc.data() + i * kCols;
          for (int64_t j = 0; j < cols; ++j) arow[j] += av * static_cast<M>(brow[j * B.cs]);
        }
      }
      T* c0 = C + (p * m + i0) * n + j0;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          M v = alpha * acc[static_cast<size_t>(i * kCols + j)];
          if (beta != M(0)) v += beta * static_cast<M>(c0[i * n + j]);  // beta 0: c is not read
          c0[i * n + j] = static_cast<T>(v);
        }
    }
  });
}

#ifdef EMBER_HAVE_BLAS
void blas_gemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda,
               const float* b, int ldb, float beta, float* c, int ldc) {
  sgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}
void blas_gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda,
               const double* b, int ldb, double beta, double* c, int ldc) {
  dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

// How column-major BLAS reads a row-major [rows, cols] operand with element strides (rs, cs):
// as its transpose stored with leading dimension rs ('N'), or as itself stored with leading
// dimension cs ('T'). The stride of a size-1 dim is free. Nothing fits stride-2 columns, say.
struct BlasLayout {
  char trans;
  int64_t ld;
};
std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1)))
    return BlasLayout{'N', rows == 1 ? std::max<int64_t>(cols, 1) : rs};
  if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1)))
    return BlasLayout{'T', cols == 1 ? std::max<int64_t>(rows, 1) : cs};
  return std::nullopt;
}

// The layout of a's (or b's) matrices, made contiguous first when BLAS cannot read them.
BlasLayout blas_operand(Tensor& t) {
  std::optional<BlasLayout> layout = blas_layout(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1));
  if (layout) return *layout;
  t = t.contiguous();
  return *blas_layout(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1));
}

bool fits_int(std::initializer_list<int64_t> values) {
  return std::all_of(values.begin(), values.end(), [](int64_t v) { return v <= INT_MAX; });
}

// Below about this many multiply-adds OpenBLAS runs a gemm on one thread (65536 times its
// GEMM_MULTITHREAD_THRESHOLD of 4), so batches of such matrices go one per ember thread instead.
constexpr int64_t kSmallGemm = 65536 * 4;

// c = alpha * a @ b + beta * c through BLAS; false when a size exceeds BLAS's 32-bit integers.
template <class T>
bool gemm_blas(Tensor a, Tensor b, const Tensor& c, Scalar alpha_s, Scalar beta_s) {
  const int64_t m = c.size(-2), n = c.size(-1), k = a.size(-1), batch = c.numel() / (m * n);
  const BlasLayout la = blas_operand(a), lb = blas_operand(b);
  if (!fits_int({m, n, k, la.ld, lb.ld})) return false;
  const Operand<T> A(a), B(b);
  T* C = c.data_ptr<T>();
  const T alpha = alpha_s.to<T>(), beta = beta_s.to<T>();
  // Row-major c = a @ b is column-major c^T = b^T a^T, so BLAS gets b first.
  auto one = [&](int64_t i) {
    blas_gemm(lb.trans, la.trans, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k),
              alpha, B.matrix(i), static_cast<int>(lb.ld), A.matrix(i), static_cast<int>(la.ld),
              beta, C + i * m * n, static_cast<int>(n));
  };
  if (batch > 1 && m * n * k <= kSmallGemm) {
    parallel_for(batch, std::max<int64_t>(1, kGrainSize / (m * n * k)), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) one(i);
    });
  } else {
    for (int64_t i = 0; i < batch; ++i) one(i);  // BLAS threads each large gemm itself
  }
  return true;
}
#endif

void gemm_kernel(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha, Scalar beta) {
  if (c.numel() == 0) return;
  kernels::dispatch_dtype(c.dtype(), "matmul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      EMBER_INTERNAL_ASSERT(false, "matmul front halves refuse bool tensors");
    } else {
#ifdef EMBER_HAVE_BLAS
      // k == 0 only scales c: the loop does it without BLAS's leading-dimension rules.
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        if (a.size(-1) > 0 && gemm_blas<T>(a, b, c, alpha, beta)) return;
#endif
      gemm_loop<T>(a, b, c, alpha, beta);
    }
  });
}

}  // namespace

void register_linalg_kernels() { kernels::gemm_stub.set(DeviceType::CPU, &gemm_kernel); }

}  // namespace ember::cpu
