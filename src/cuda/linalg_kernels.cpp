// CUDA gemm: float32/float64 through cuBLAS's S/D gemms, float16/bfloat16 through
// cublasGemmStridedBatchedEx with float accumulation, one strided-batched call per plan entry
// (gemm_plan.h); integer dtypes, k == 0 and oversized products through gemm_loop.cu.
#include <type_traits>

#include "cuda/cublas_handle.h"
#include "cuda/gemm_loop.h"
#include "cuda/gemm_plan.h"
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/linalg_stubs.h"
#include "kernels/scalar_cast.h"

namespace ember::cuda {
namespace {

cublasOperation_t op_of(bool transpose) { return transpose ? CUBLAS_OP_T : CUBLAS_OP_N; }

using impl::CublasApi;

// One strided-batched call of `plan` for element type T on pointers already offset to the call.
void gemm_call(const CublasApi& cublas, cublasHandle_t handle, const GemmPlan& p, const float* a,
               const float* b, float* c, float alpha, float beta) {
  EMBER_CUBLAS_CHECK(
      cublas.sgemm_strided_batched(handle, op_of(p.transa), op_of(p.transb), static_cast<int>(p.m),
                                   static_cast<int>(p.n), static_cast<int>(p.k), &alpha, a,
                                   static_cast<int>(p.lda), p.stride_a, b, static_cast<int>(p.ldb),
                                   p.stride_b, &beta, c, static_cast<int>(p.ldc), p.stride_c,
                                   static_cast<int>(p.batch)),
      "matmul");
}
void gemm_call(const CublasApi& cublas, cublasHandle_t handle, const GemmPlan& p, const double* a,
               const double* b, double* c, double alpha, double beta) {
  EMBER_CUBLAS_CHECK(
      cublas.dgemm_strided_batched(handle, op_of(p.transa), op_of(p.transb), static_cast<int>(p.m),
                                   static_cast<int>(p.n), static_cast<int>(p.k), &alpha, a,
                                   static_cast<int>(p.lda), p.stride_a, b, static_cast<int>(p.ldb),
                                   p.stride_b, &beta, c, static_cast<int>(p.ldc), p.stride_c,
                                   static_cast<int>(p.batch)),
      "matmul");
}
// 16-bit floats: products and sums in float (CUBLAS_COMPUTE_32F), as the CPU loop's opmath.
template <class T>
void gemm_call(const CublasApi& cublas, cublasHandle_t handle, const GemmPlan& p, const T* a,
               const T* b, T* c, float alpha, float beta) {
  constexpr cudaDataType_t type = std::is_same_v<T, Half> ? CUDA_R_16F : CUDA_R_16BF;
  EMBER_CUBLAS_CHECK(
      cublas.gemm_strided_batched_ex(
          handle, op_of(p.transa), op_of(p.transb), static_cast<int>(p.m), static_cast<int>(p.n),
          static_cast<int>(p.k), &alpha, a, type, static_cast<int>(p.lda), p.stride_a, b, type,
          static_cast<int>(p.ldb), p.stride_b, &beta, c, type, static_cast<int>(p.ldc), p.stride_c,
          static_cast<int>(p.batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      "matmul");
}

// c = alpha a @ b + beta c through cuBLAS; false when the plan falls to gemm_loop.
template <class T>
bool gemm_cublas(const Tensor& a_in, const Tensor& b_in, const Tensor& c, Scalar alpha_s,
                 Scalar beta_s) {
  using M = kernels::opmath_t<T>;
  if (a_in.size(-1) == 0) return false;
  const Tensor a = readable_by_blas(a_in), b = readable_by_blas(b_in);
  const std::optional<GemmPlan> plan = plan_gemm(c.sizes(), a.size(-1), a.strides(), b.strides());
  if (!plan) return false;
  const impl::DeviceStream on(c.device());
  cublasHandle_t handle = impl::cublas_handle(c.device().index(), "matmul");
  const CublasApi& cublas = impl::cublas_api("matmul");  // loaded by cublas_handle
  const M alpha = kernels::scalar_cast<M>(alpha_s), beta = kernels::scalar_cast<M>(beta_s);
  // cuBLAS's A is our b (Note [Row-major gemm on cuBLAS]).
  // data_ptr<T>() is for host memory only.
  const T* blas_a = static_cast<const T*>(b.data_ptr());
  const T* blas_b = static_cast<const T*>(a.data_ptr());
  T* blas_c = static_cast<T*>(c.data_ptr());
  for (const GemmPlan::Offsets& at : plan->calls)
    gemm_call(cublas, handle, *plan, blas_a + at.a, blas_b + at.b, blas_c + at.c, alpha, beta);
  impl::after_launch("matmul", on.stream);
  return true;
}

void gemm_kernel(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha, Scalar beta) {
  if (c.numel() == 0) return;
  const bool done = kernels::dispatch_dtype(c.scalar_type(), "matmul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Half> ||
                  std::is_same_v<T, BFloat16>)
      return gemm_cublas<T>(a, b, c, alpha, beta);
    else return false;
  });
  if (!done) gemm_loop(a, b, c, alpha, beta);
}

}  // namespace

void register_linalg_kernels() { kernels::gemm_stub.set(DeviceType::CUDA, &gemm_kernel); }

}  // namespace ember::cuda
