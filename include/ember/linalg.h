// Matrix products through BLAS (float32/float64) with PyTorch's matmul broadcasting rules.
#pragma once

#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

EMBER_API Tensor matmul(const Tensor& a, const Tensor& b);  // 1-D, 2-D and batched, broadcast
EMBER_API Tensor mm(const Tensor& a, const Tensor& b);      // [n,k] x [k,m]
EMBER_API Tensor bmm(const Tensor& a, const Tensor& b);     // [b,n,k] x [b,k,m]
EMBER_API Tensor mv(const Tensor& a, const Tensor& v);
EMBER_API Tensor dot(const Tensor& a, const Tensor& b);
// beta * self + alpha * (a @ b)
EMBER_API Tensor addmm(const Tensor& self, const Tensor& a, const Tensor& b, Scalar beta = 1,
                       Scalar alpha = 1);
// x @ weight.T + bias, as torch.nn.functional.linear; bias may be undefined.
EMBER_API Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor());
// y[..., o] = sum_ij x1[..., i] weight[o, i, j] x2[..., j] + bias[o], as torch.bilinear:
// x1 [*, in1], x2 [*, in2] (the same leading dims), weight [out, in1, in2], bias [out] or
// undefined. Composed of matmul, mul and sum, so autograd and every device come with them.
EMBER_API Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                          const Tensor& bias = Tensor());

}  // namespace ember
