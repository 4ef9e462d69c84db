// BLAS's gemm on raw pointers, for the CPU kernels that call it directly: matmul
// (linalg_kernels.cpp, which defines these) and conv2d's per-image products (conv_kernels.cpp).
// Column-major, the Fortran interface's arguments; only in a build with a BLAS.
#pragma once

#ifdef EMBER_HAVE_BLAS
namespace ember::cpu {

void blas_gemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda,
               const float* b, int ldb, float beta, float* c, int ldc);
void blas_gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda,
               const double* b, int ldb, double beta, double* c, int ldc);

}  // namespace ember::cpu
#endif
