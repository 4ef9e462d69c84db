// CPU gemm: float32/float64 through BLAS, one call per batch matrix with strided operands passed
// as BLAS transposes; every other dtype (and all of them in a build without BLAS) through a
// blocked loop that accumulates in opmath_t (float for half and bfloat16).
#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/tensor_impl.h"
#include "cpu/blas.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/linalg_stubs.h"
#include "kernels/scalar_cast.h"
#include "kernels/wrap_int.h"

#ifdef EMBER_HAVE_BLAS
// The Fortran interface: every BLAS exports it, so no cblas.h has to be found.
extern "C" {
void sgemv_(const char* trans, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* x, const int* incx, const float* beta, float* y,
            const int* incy);
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy);
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
}
#endif

namespace ember::cpu {

#ifdef EMBER_HAVE_BLAS
void blas_gemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda,
               const float* b, int ldb, float beta, float* c, int ldc) {
  sgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}
void blas_gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda,
               const double* b, int ldb, double beta, double* c, int ldc) {
  dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}
#endif

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
  // With k == 0 there is no product to scale: BLAS (and PyTorch) leave alpha out altogether, so
  // a NaN or infinite alpha does not reach beta * c.
  const M alpha = k > 0 ? kernels::scalar_cast<M>(alpha_s) : M(0),
          beta = kernels::scalar_cast<M>(beta_s);
  const int64_t row_tiles = (m + kRows - 1) / kRows, col_tiles = (n + kCols - 1) / kCols;
  const int64_t grain =
      std::max<int64_t>(1, kGrainSize / (kRows * kCols * std::max<int64_t>(k, 1)));
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
          for (int64_t j = 0; j < cols; ++j) {  // integers wrap: Note [Integer wraparound]
            const M bv = static_cast<M>(brow[j * B.cs]);
            arow[j] = kernels::wrap_add(arow[j], kernels::wrap_mul(av, bv));
          }
        }
      }
      T* c0 = C + (p * m + i0) * n + j0;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          M v = kernels::wrap_mul(alpha, acc[static_cast<size_t>(i * kCols + j)]);
          if (beta != M(0))  // beta 0: c is not read
            v = kernels::wrap_add(v, kernels::wrap_mul(beta, static_cast<M>(c0[i * n + j])));
          c0[i * n + j] = static_cast<T>(v);
        }
    }
  });
}

#ifdef EMBER_HAVE_BLAS
// How column-major BLAS reads a row-major [rows, cols] operand with element strides (rs, cs):
// as its transpose stored with leading dimension rs ('N'), or as itself stored with leading
// dimension cs ('T'). The stride of a size-1 dim is free. Nothing fits stride-2 columns, say.
void blas_gemv(char t, int m, int n, float alpha, const float* a, int lda, const float* x, int incx,
               float beta, float* y) {
  const int one = 1;
  sgemv_(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &one);
}
void blas_gemv(char t, int m, int n, double alpha, const double* a, int lda, const double* x,
               int incx, double beta, double* y) {
  const int one = 1;
  dgemv_(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &one);
}

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
  std::optional<BlasLayout> layout =
      blas_layout(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1));
  if (layout) return *layout;
  t = t.contiguous();
  return *blas_layout(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1));
}

bool fits_int(std::initializer_list<int64_t> values) {
  return std::all_of(values.begin(), values.end(), [](int64_t v) { return v <= INT_MAX; });
}

// Below about this many multiply-adds OpenBLAS runs a gemm on one thread (65536 times its
// GEMM_MULTITHREAD_THRESHOLD of 4), so batches of such matrices go one per ember thread instead.
// Multiply-adds below which one thread does a whole product: waking the other costs about as
// much as this many flops.
constexpr int64_t kGemmGrainFlops = int64_t{1} << 18;
// A matrix-vector product reads each weight once, so it is bound by memory, not flops: split it
// over the threads from 32768 multiply-adds (128 KiB of float weights) up. The split is static,
// so each thread reads the same rows every call and keeps them in its core's L2 (W8: the MLP's
// 2.7 MB of weights fit two cores' L2 halves, not one).
constexpr int64_t kGemvGrainFlops = int64_t{1} << 15;
// A row split gives every thread all of b to pack for its few rows; below this many rows per
// thread, when there are at least 4 times more columns than rows (a small batch through a wide
// Linear, and its input gradient), the columns are split instead, in whole 64-byte runs: each
// thread then packs only its share of b. Measured with single-threaded OpenBLAS on 2 cores,
// m = 16..64 and n = 4m..1024: 1.1-1.7x faster at k = 512; a W6 step at batch 64 went from 1.69
// to 1.27 ms. With few columns, or k = 64 and 128 rows or more, the row split is faster.
constexpr int64_t kGemmFewRowsPerThread = 64;
constexpr int64_t kGemmColumnRun = 16;

// Note [One thread pool]: OpenBLAS starts its own threads; with ember's OpenMP workers spinning
// between ops, two pools fight over the cores (W6 step times varied 3x on 2 cores). BLAS is told
// to use one thread, looked up by name so that any BLAS links. OpenBLAS's pool, started when it
// loaded, would still spin in sched_yield for its timeout (2^28 cycles, a tenth of a second)
// beside ember's threads, and the pool will never get work: it is shut down.
void make_blas_single_threaded() {
  using SetThreads = void (*)(int);
  for (const char* name : {"openblas_set_num_threads", "goto_set_num_threads",
                           "bli_thread_set_num_threads", "MKL_Set_Num_Threads"})
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, name))) {
      set(1);
      break;
    }
  using Shutdown = int (*)();
  if (auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_")))
    shutdown();
}

// Note [OpenBLAS on CPUs newer than it]
// A DYNAMIC_ARCH OpenBLAS picks its kernels from the CPU model when it loads. 0.3.21 (Debian 12)
// does not know Sapphire Rapids and falls back to its SSE3 "Prescott" kernels: a 1024^3 sgemm ran
// at 33 GFLOP/s against 163 with the SkylakeX kernels, on one core of this machine. When the
// user has not chosen (OPENBLAS_CORETYPE unset), OpenBLAS chose a kernel set older than AVX, and
// ember finds AVX-512 or AVX2 on the CPU, ember names the newest set the CPU runs and has OpenBLAS
// choose again, before any product runs. Any other BLAS lacks these entry points and is left be.
void choose_blas_kernels() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  using Corename = char* (*)();
  using Step = void (*)();
  const auto corename = reinterpret_cast<Corename>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const auto quit = reinterpret_cast<Step>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_quit"));
  const auto init = reinterpret_cast<Step>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_init"));
  if (corename == nullptr || quit == nullptr || init == nullptr) return;
  const std::string_view chosen = corename();
  const bool before_avx = chosen == "Prescott" || chosen == "Core2" || chosen == "Penryn" ||
                          chosen == "Dunnington" || chosen == "Nehalem" || chosen == "Atom";
  if (!before_avx) return;
  const Capability cpu = supported_capability();
  if (cpu == Capability::Baseline) return;
  setenv("OPENBLAS_CORETYPE", cpu == Capability::Avx512 ? "SkylakeX" : "Haswell", 0);
  quit();
  init();
  unsetenv("OPENBLAS_CORETYPE");  // the user's environment stays as it was
}

// c = alpha * a @ b + beta * c through BLAS; false when a size exceeds BLAS's 32-bit integers.
template <class T>
bool gemm_blas(Tensor a, Tensor b, const Tensor& c, Scalar alpha_s, Scalar beta_s) {
  const int64_t m = c.size(-2), n = c.size(-1), k = a.size(-1), batch = c.numel() / (m * n);
  const BlasLayout la = blas_operand(a), lb = blas_operand(b);
  if (!fits_int({m, n, k, la.ld, lb.ld})) return false;
  const Operand<T> A(a), B(b);
  T* C = c.data_ptr<T>();
  const T alpha = kernels::scalar_cast<T>(alpha_s), beta = kernels::scalar_cast<T>(beta_s);
  // One output row (a batch-1 Linear): a matrix-vector product, its output columns split over
  // ember's threads. GEMM with a single row is several times slower in OpenBLAS.
  if (m == 1 && batch == 1 && A.cs > 0 && fits_int({A.cs})) {
    const int64_t ld = lb.ld;
    parallel_for(n, std::max<int64_t>(1, kGemvGrainFlops / std::max<int64_t>(k, 1)),
                 [&](int64_t j0, int64_t j1) {
                   const int cols = static_cast<int>(j1 - j0), kk = static_cast<int>(k);
                   // BLAS sees b^T: stored n x k ('N', column j0 starts at row j0) or k x n
                   // ('T', column j0 starts j0 * ld in).
                   if (lb.trans == 'N')
                     blas_gemv('N', cols, kk, alpha, B.matrix(0) + j0, static_cast<int>(ld),
                               A.matrix(0), static_cast<int>(A.cs), beta, C + j0);
                   else
                     blas_gemv('T', kk, cols, alpha, B.matrix(0) + j0 * ld, static_cast<int>(ld),
                               A.matrix(0), static_cast<int>(A.cs), beta, C + j0);
                 });
    return true;
  }
  // Row-major c = a @ b is column-major c^T = b^T a^T, so BLAS gets b first. Few rows: their
  // columns split over the threads (kGemmFewRowsPerThread).
  if (batch == 1 && m < kGemmFewRowsPerThread * num_threads() && n >= 4 * m) {
    const int64_t run_flops = std::max<int64_t>(m * k * kGemmColumnRun, 1);
    parallel_for((n + kGemmColumnRun - 1) / kGemmColumnRun,
                 std::max<int64_t>(1, kGemmGrainFlops / run_flops), [&](int64_t r0, int64_t r1) {
                   // Columns [j0, j1) of c and b are plain matrices with the same strides.
                   const int64_t j0 = r0 * kGemmColumnRun, j1 = std::min(n, r1 * kGemmColumnRun);
                   blas_gemm(lb.trans, la.trans, static_cast<int>(j1 - j0), static_cast<int>(m),
                             static_cast<int>(k), alpha, B.matrix(0) + j0 * B.cs,
                             static_cast<int>(lb.ld), A.matrix(0), static_cast<int>(la.ld), beta,
                             C + j0, static_cast<int>(n));
                 });
    return true;
  }
  // Otherwise rows [r0, r1) of matrix i are one BLAS call: a row block of a row-major matrix is
  // still a plain matrix.
  auto rows = [&](int64_t i, int64_t r0, int64_t r1) {
    blas_gemm(lb.trans, la.trans, static_cast<int>(n), static_cast<int>(r1 - r0),
              static_cast<int>(k), alpha, B.matrix(i), static_cast<int>(lb.ld),
              A.matrix(i) + r0 * A.rs, static_cast<int>(la.ld), beta, C + (i * m + r0) * n,
              static_cast<int>(n));
  };
  // Note [One thread pool]: BLAS runs single-threaded (see register_linalg_kernels) and ember's
  // own threads split the (matrix, row) space, so OpenBLAS's threads never fight OpenMP workers
  // still spinning after the previous op. Each thread's range becomes at most one BLAS call per
  // matrix it touches.
  const int64_t row_flops = std::max<int64_t>(n * k, 1);
  parallel_for(batch * m, std::max<int64_t>(1, kGemmGrainFlops / row_flops),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t r = lo; r < hi;) {
                   const int64_t i = r / m, r0 = r % m, r1 = std::min(m, r0 + (hi - r));
                   rows(i, r0, r1);
                   r += r1 - r0;
                 }
               });
  return true;
}
#endif

void gemm_kernel(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha, Scalar beta) {
  if (c.numel() == 0) return;
  kernels::dispatch_dtype(c.scalar_type(), "matmul", [&](auto tag) {
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

void register_linalg_kernels() {
#ifdef EMBER_HAVE_BLAS
  make_blas_single_threaded();
  choose_blas_kernels();
#endif
  kernels::gemm_stub.set(DeviceType::CPU, &gemm_kernel);
}

}  // namespace ember::cpu
