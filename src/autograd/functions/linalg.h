// Backward formula of the matrix products (mm, bmm, mv, dot, matmul, addmm, linear), which
// ops/linalg.cpp computes as one batched gemm: out = alpha a @ b + beta self.
#pragma once

#include "autograd/record.h"
#include "ember/scalar.h"

namespace ember::autograd::functions {

// MmBackward0, BmmBackward0, MvBackward0, DotBackward0 and AddmmBackward0: d self = beta g
// (reduced to self's shape by the engine), d a = alpha g @ b^T, d b = alpha a^T @ g. Saves a
// and b.
struct ProductBackward {
  Scalar alpha, beta;
  bool has_self;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
