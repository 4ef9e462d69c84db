// The kernel entry points of reductions, cumulative sums and softmax (see elementwise_stubs.h
// for the elementwise families). Like every *_stubs.h, the header defines its stubs
// (Note [Stubs in their family's header] in dispatch_stub.h).
#pragma once

#include "ember/tensor.h"
#include "kernels/dispatch_stub.h"
#include "kernels/reduce_iter.h"

namespace ember::kernels {

enum class ReduceKind {
  Sum,
  Mean,
  Prod,
  Max,
  Min,
  ArgMax,
  ArgMin,
  Any,
  All,
  Var,
  Std,
  Norm,
  LogSumExp
};

struct ReduceParams {
  double norm_p = 2.0;      // Norm
  double correction = 1.0;  // Var, Std
};

using ReduceFn = void (*)(const ReduceIter&, ReduceKind, const ReduceParams&);
// out = cumsum(in) along `dim`; both contiguous, of the same shape and dtype.
using CumsumFn = void (*)(const Tensor& in, const Tensor& out, int64_t dim);
// out = softmax or log_softmax of in along `dim`; both contiguous, same shape, a floating dtype.
using SoftmaxFn = void (*)(const Tensor& in, const Tensor& out, int64_t dim, bool log);

inline DispatchStub<ReduceFn> reduce_stub{"reduction"};
inline DispatchStub<CumsumFn> cumsum_stub{"cumsum"};
inline DispatchStub<SoftmaxFn> softmax_stub{"softmax"};

}  // namespace ember::kernels
