// The kernel entry points of reductions, scans (cumsum, cumprod) and softmax (see
// elementwise_stubs.h for the elementwise families). Like every *_stubs.h, the header defines its
// stubs (Note [Stubs in their family's header] in dispatch_stub.h).
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
// What a scan folds along its dim: cumsum and cumprod share the kernels.
enum class ScanKind { Sum, Prod };
// The op's name, for messages.
inline const char* scan_name(ScanKind kind) {
  switch (kind) {
    case ScanKind::Sum: return "cumsum";
    case ScanKind::Prod: return "cumprod";
  }
  return "scan";
}

// out = cumsum(in) or cumprod(in) along `dim`; both contiguous, of the same shape and dtype.
using ScanFn = void (*)(const Tensor& in, const Tensor& out, int64_t dim, ScanKind kind);
// out = softmax or log_softmax of in along `dim`; both contiguous, same shape, a floating dtype.
using SoftmaxFn = void (*)(const Tensor& in, const Tensor& out, int64_t dim, bool log);

inline DispatchStub<ReduceFn> reduce_stub{"reduction"};
inline DispatchStub<ScanFn> scan_stub{"scan"};
inline DispatchStub<SoftmaxFn> softmax_stub{"softmax"};

}  // namespace ember::kernels
