// The CUDA gemm's host-side planning and its own kernel, checked without a GPU: the cuBLAS
// calls that src/cuda/gemm_plan.h plans are evaluated with a column-major host loop that follows
// cuBLAS's contract (and asserts its argument rules), and src/cuda/gemm_loop.h's per-thread
// function is run for every thread; both must give the CPU kernel's results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cuda/gemm_loop.h"
#include "cuda/gemm_plan.h"
#include "ember/ember.h"
#include "kernels/dtype_dispatch.h"

namespace ember {
namespace {

using cuda::GemmPlan;

// cublas<T>gemmStridedBatched for every call of the plan, on host memory: C = alpha op(A) op(B)
// + beta C, column-major, with C not read when beta == 0.
template <class T>
void run_plan(const GemmPlan& p, const T* A, const T* B, T* C, double alpha, double beta) {
  ASSERT_GE(p.lda, std::max<int64_t>(1, p.transa ? p.k : p.m));
  ASSERT_GE(p.ldb, std::max<int64_t>(1, p.transb ? p.n : p.k));
  ASSERT_GE(p.ldc, std::max<int64_t>(1, p.m));
  for (const GemmPlan::Offsets& at : p.calls)
    for (int64_t q = 0; q < p.batch; ++q) {
      const T* a = A + at.a + q * p.stride_a;
      const T* b = B + at.b + q * p.stride_b;
      T* c = C + at.c + q * p.stride_c;
      for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j) {
          double acc = 0;
          for (int64_t l = 0; l < p.k; ++l) {
            const double x = static_cast<double>(p.transa ? a[l + i * p.lda] : a[i + l * p.lda]);
            const double y = static_cast<double>(p.transb ? b[j + l * p.ldb] : b[l + j * p.ldb]);
            acc += x * y;
          }
          T& out = c[i + j * p.ldc];
          out = static_cast<T>(alpha * acc + (beta != 0 ? beta * static_cast<double>(out) : 0));
        }
    }
}

struct Planned {
  bool copied_a = false, copied_b = false;
  size_t calls = 0;
  int64_t batch = 0;
};

// What the CUDA kernel does for c = alpha a @ b + beta c0 (a, b already expanded to the batch
// shape, as the front half passes them), with cuBLAS replaced by run_plan; compared with the
// CPU's matmul. c starts as NaN when beta == 0: every element must be written, none read.
template <class T>
Planned expect_planned_eq(const Tensor& a, const Tensor& b, double alpha = 1, double beta = 0) {
  const ScalarType dtype = CppTypeToScalarType<T>::value;
  std::vector<int64_t> c_shape = a.sizes().vec();
  c_shape.back() = b.size(-1);
  Tensor c0 = randn(c_shape).to(dtype);
  Tensor expected = add(mul(matmul(a, b), alpha), mul(c0, beta));
  Tensor c = beta != 0 ? c0.clone() : full(c_shape, NAN, dtype);

  Tensor ra = cuda::readable_by_blas(a), rb = cuda::readable_by_blas(b);
  Planned out{!ra.is_same(a), !rb.is_same(b)};
  std::optional<GemmPlan> plan = cuda::plan_gemm(c.sizes(), a.size(-1), ra.strides(), rb.strides());
  EXPECT_TRUE(plan.has_value()) << "no plan for " << a.sizes() << " @ " << b.sizes();
  if (!plan) return out;
  out.calls = plan->calls.size();
  out.batch = plan->batch;
  // cuBLAS's A is our b.
  run_plan<T>(*plan, static_cast<const T*>(rb.data_ptr()), static_cast<const T*>(ra.data_ptr()),
              static_cast<T*>(c.data_ptr()), alpha, beta);
  const double tol = dtype == kFloat64 ? 1e-12 : 1e-4;
  EXPECT_TRUE(allclose(c.to(kFloat64), expected.to(kFloat64), tol, tol))
      << a.sizes() << " (strides " << a.strides() << ") @ " << b.sizes() << " (strides "
      << b.strides() << "), alpha " << alpha << " beta " << beta << "\ngot " << c << "\nexpected "
      << expected;
  return out;
}

Tensor sample(IntArrayRef shape) { return randn(shape, kFloat64); }

TEST(GemmEmulated, MatrixLayoutsMapToOpFlags) {
  manual_seed(1);
  for (auto [m, k, n] : {std::tuple{5, 7, 3}, {1, 4, 6}, {6, 4, 1}, {1, 1, 1}, {9, 1, 8}}) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n));
    Tensor a = sample({m, k}), b = sample({k, n});
    Tensor at = sample({k, m}).t(), bt = sample({n, k}).t();
    // Row-major and transposed operands are read in place, whatever the combination.
    for (const Tensor& x : {a, at})
      for (const Tensor& y : {b, bt}) {
        Planned p = expect_planned_eq<double>(x, y);
        EXPECT_FALSE(p.copied_a || p.copied_b);
        EXPECT_EQ(p.calls, 1u);
      }
    // Rows of a wider matrix: leading dimension above the row length, still no copy.
    Planned wide = expect_planned_eq<double>(sample({m, k + 3}).narrow(1, 2, k),
                                             sample({n + 2, k}).narrow(0, 1, n).t());
    EXPECT_FALSE(wide.copied_a || wide.copied_b);
    // Every other column: cuBLAS cannot read it, so it is copied, unless one row or column
    // makes that stride a free leading dimension.
    Planned strided = expect_planned_eq<double>(sample({m, 2 * k}).slice(1, 0, 2 * k, 2), b);
    EXPECT_EQ(strided.copied_a, k > 1 && m > 1);
  }
}

TEST(GemmEmulated, AlphaBetaAndDtypes) {
  manual_seed(2);
  Tensor a = sample({4, 6}), b = sample({6, 5}).t().contiguous().t();
  expect_planned_eq<double>(a, b, 2.5, 0.5);
  expect_planned_eq<double>(a, b, -1, 1);
  expect_planned_eq<float>(a.to(kFloat32), b.to(kFloat32), 0.5, 2);
  expect_planned_eq<float>(a.to(kFloat32).t().contiguous().t(), b.to(kFloat32));
}

TEST(GemmEmulated, BatchDims) {
  manual_seed(3);
  // Contiguous batch: one call of 6 matrices (two batch dims coalesced).
  Planned dense = expect_planned_eq<double>(sample({2, 3, 4, 5}), sample({2, 3, 5, 2}));
  EXPECT_EQ(dense.calls, 1u);
  EXPECT_EQ(dense.batch, 6);
  // A weight broadcast over the batch (stride 0): one call, no copy.
  Planned shared = expect_planned_eq<double>(sample({7, 4, 5}), sample({5, 3}).expand({7, 5, 3}));
  EXPECT_EQ(shared.calls, 1u);
  EXPECT_EQ(shared.batch, 7);
  EXPECT_FALSE(shared.copied_b);
  // [2, 1] broadcast to [2, 3] against a dense [2, 3]: no single batch stride, so the larger
  // dim is batched and the other becomes separate calls.
  Planned mixed =
      expect_planned_eq<double>(sample({2, 1, 4, 5}).expand({2, 3, 4, 5}), sample({2, 3, 5, 2}));
  EXPECT_EQ(mixed.calls, 2u);
  EXPECT_EQ(mixed.batch, 3);
  // Permuted batch dims, transposed matrices.
  expect_planned_eq<double>(sample({3, 2, 5, 4}).permute({1, 0, 3, 2}), sample({2, 3, 5, 6}));
  // A copy of a broadcast operand keeps the broadcast: stride 0 remains after the copy.
  Tensor strided = sample({1, 4, 10}).slice(2, 0, 10, 2).expand({3, 4, 5});
  Planned copied = expect_planned_eq<double>(strided, sample({3, 5, 2}));
  EXPECT_TRUE(copied.copied_a);
  EXPECT_EQ(cuda::readable_by_blas(strided).stride(0), 0);
  // Size-1 batch dims with odd strides are skipped.
  expect_planned_eq<double>(sample({4, 1, 3, 2}).narrow(0, 1, 1).permute({1, 0, 2, 3}),
                            sample({1, 1, 2, 3}));
}

TEST(GemmEmulated, PlanFallsBackBeyondIntArgumentsOrEmptyK) {
  const int64_t big = int64_t{3} << 30;
  EXPECT_FALSE(cuda::plan_gemm({big, 2}, 4, {4, 1}, {2, 1}).has_value());
  EXPECT_FALSE(cuda::plan_gemm({2, 3}, 0, {0, 1}, {3, 1}).has_value());
  EXPECT_TRUE(cuda::plan_gemm({2, 3}, 4, {4, 1}, {3, 1}).has_value());
}

// gemm_loop.cu's grid, one thread per element of c, run on the host.
template <class T>
void emulate_gemm_loop(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha,
                       Scalar beta) {
  const auto args = cuda::make_gemm_loop_args<T>(a, b, c, alpha, beta);
  for (int64_t e = 0; e < c.numel(); ++e) cuda::gemm_loop_element(args, e);
}

template <class T>
void expect_loop_eq(const Tensor& a, const Tensor& b, Scalar alpha, Scalar beta, const Tensor& c0) {
  // The CPU's matmul, scaled by the elementwise ops: exact for integers, wrap-around included.
  Tensor product = matmul(a, b);
  Tensor expected =
      beta.toDouble() == 0 ? mul(product, alpha) : add(mul(product, alpha), mul(c0, beta));
  Tensor c = c0.clone();
  emulate_gemm_loop<T>(a, b, c, alpha, beta);
  EXPECT_TRUE(equal(c, expected.to(c.dtype()))) << "got " << c << "\nexpected " << expected;
}

TEST(GemmEmulated, LoopKernelIntegers) {
  manual_seed(4);
  auto ints = [](IntArrayRef shape, ScalarType dtype) { return randint(-9, 9, shape).to(dtype); };
  for (ScalarType dtype : {kInt64, kInt32, kInt16, kInt8, kUInt8}) {
    SCOPED_TRACE(toString(dtype));
    kernels::dispatch_dtype(dtype, "test", [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        Tensor a = ints({2, 3, 4, 5}, dtype), b = ints({2, 3, 5, 6}, dtype);
        expect_loop_eq<T>(a, b, 1, 0, ints({2, 3, 4, 6}, dtype));
        expect_loop_eq<T>(a, b, 2, 3, ints({2, 3, 4, 6}, dtype));
        // Transposed and broadcast operands.
        Tensor at = ints({3, 4, 6}, dtype).transpose(1, 2);
        Tensor bb = ints({4, 2}, dtype).expand({3, 4, 2});
        expect_loop_eq<T>(at, bb, 1, 0, ints({3, 6, 2}, dtype));
      }
    });
  }
}

TEST(GemmEmulated, LoopKernelEmptyK) {
  // k == 0: c = beta c, with alpha left out (a NaN alpha does not reach c).
  Tensor a = empty({3, 0}), b = empty({0, 4});
  Tensor c0 = randn({3, 4});
  Tensor c = c0.clone();
  emulate_gemm_loop<float>(a, b, c, NAN, 2);
  EXPECT_TRUE(equal(c, mul(c0, 2)));
  Tensor z = full({3, 4}, NAN);
  emulate_gemm_loop<float>(a, b, z, 1, 0);
  EXPECT_TRUE(equal(z, zeros({3, 4})));
}

}  // namespace
}  // namespace ember
