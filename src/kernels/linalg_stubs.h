// The kernel entry point of the matrix products: every op of linalg.h reduces to one batched
// c = alpha * a @ b + beta * c, so a backend implements a single gemm.
#pragma once

#include "ember/scalar.h"
#include "ember/tensor.h"
#include "kernels/dispatch_stub.h"

namespace ember::kernels {

// a: [batch..., m, k], b: [batch..., k, n], c: [batch..., m, n], one dtype, equal batch dims.
// a and b may have any strides, including 0 in broadcast batch dims; c is contiguous and does not
// alias them. beta == 0 means c is not read (it may hold garbage or NaN), as in BLAS.
using GemmFn = void (*)(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha,
                        Scalar beta);

inline DispatchStub<GemmFn> gemm_stub{"matmul"};

}  // namespace ember::kernels
