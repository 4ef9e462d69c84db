// The CUDA gemm's own kernel, for what cuBLAS does not do: integer dtypes, k == 0 (c = beta c)
// and sizes beyond cuBLAS's int arguments. One thread per element of c, accumulating in opmath_t
// in the CPU loop's order, so integer results equal the CPU's. Compiled by g++ and nvcc (Note
// [Emulated GPU loop]); gemm_loop.cu adds the launch.
#pragma once

#include <cstdint>

#include "ember/macros.h"
#include "ember/scalar.h"
#include "ember/tensor.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/offset_calc.h"
#include "kernels/scalar_cast.h"

namespace ember::cuda {

inline constexpr int kGemmLoopThreads = 256;

// a: [batch..., m, k], b: [batch..., k, n] with any element strides; c contiguous.
template <class T>
struct GemmLoopArgs {
  const T* a;
  const T* b;
  T* c;
  int64_t m, n, k;
  int64_t a_rs, a_cs, b_rs, b_cs;
  kernels::OffsetCalculator<2> batches;  // innermost first; operand 0: a's strides, 1: b's
  kernels::opmath_t<T> alpha, beta;
};

template <class T>
GemmLoopArgs<T> make_gemm_loop_args(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha,
                                    Scalar beta) {
  using M = kernels::opmath_t<T>;
  GemmLoopArgs<T> g{};
  g.a = static_cast<const T*>(a.data_ptr());
  g.b = static_cast<const T*>(b.data_ptr());
  g.c = static_cast<T*>(c.data_ptr());
  g.m = c.size(-2);
  g.n = c.size(-1);
  g.k = a.size(-1);
  g.a_rs = a.stride(-2);
  g.a_cs = a.stride(-1);
  g.b_rs = b.stride(-2);
  g.b_cs = b.stride(-1);
  g.batches.ndim = static_cast<int>(c.dim()) - 2;
  for (int d = 0; d < g.batches.ndim; ++d) {
    const int64_t dim = g.batches.ndim - 1 - d;
    g.batches.sizes[d] = c.size(dim);
    g.batches.strides[d][0] = a.stride(dim);
    g.batches.strides[d][1] = b.stride(dim);
  }
  // As the CPU loop: with k == 0 there is no product to scale, so alpha (NaN, say) is left out.
  g.alpha = g.k > 0 ? kernels::scalar_cast<M>(alpha) : M(0);
  g.beta = kernels::scalar_cast<M>(beta);
  return g;
}

// Element e of c (row-major over [batch..., m, n]); beta == 0 does not read c.
template <class T>
EMBER_HOST_DEVICE void gemm_loop_element(const GemmLoopArgs<T>& g, int64_t e) {
  using M = kernels::opmath_t<T>;
  const int64_t j = e % g.n, i = e / g.n % g.m;
  const auto batch = g.batches.get(e / (g.m * g.n));
  const T* a = g.a + batch.at[0] + i * g.a_rs;
  const T* b = g.b + batch.at[1] + j * g.b_cs;
  // The elementwise functors' arithmetic, so integer overflow behaves as in add and mul.
  const kernels::Add<M> add{M(1)};
  const kernels::Mul<M> mul{};
  M acc = M(0);
  for (int64_t q = 0; q < g.k; ++q)
    acc = add(acc, mul(static_cast<M>(a[q * g.a_cs]), static_cast<M>(b[q * g.b_rs])));
  M v = mul(g.alpha, acc);
  if (g.beta != M(0)) v = add(v, mul(g.beta, static_cast<M>(g.c[e])));
  g.c[e] = static_cast<T>(v);
}

// Launches gemm_loop_element over c on the current stream of c's device (gemm_loop.cu).
void gemm_loop(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha, Scalar beta);

}  // namespace ember::cuda
