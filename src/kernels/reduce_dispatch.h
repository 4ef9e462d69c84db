// Which reduction functor serves each ReduceKind and dtype, chosen once for every backend's
// reduce loop. Compiled by g++ and nvcc (host code only).
#pragma once

#include <limits>
#include <type_traits>

#include "core/check.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_iter.h"
#include "kernels/reduce_stubs.h"

namespace ember::kernels {

// The p-norm with the functor specialised for p = 0, 1, 2, inf and -inf.
template <class T, class M, class Loop>
void run_norm(const kernels::ReduceIter& it, double norm_p, const Loop& loop) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const M p = static_cast<M>(norm_p);
  if (norm_p == 0) return loop.template run<T, T>(it, NormOp<M, NormKind::Zero>{p});
  if (norm_p == 1) return loop.template run<T, T>(it, NormOp<M, NormKind::One>{p});
  if (norm_p == 2) return loop.template run<T, T>(it, NormOp<M, NormKind::Two>{p});
  if (norm_p == kInf) return loop.template run<T, T>(it, NormOp<M, NormKind::Inf>{p});
  if (norm_p == -kInf) return loop.template run<T, T>(it, NormOp<M, NormKind::NegInf>{p});
  return loop.template run<T, T>(it, NormOp<M, NormKind::General>{p});
}

// Calls f(op) with the functor that serves scan `kind` over accumulator Acc: the CPU and CUDA
// scans both dispatch here.
template <class Acc, class F>
void with_scan_op(ScanKind kind, F&& f) {
  switch (kind) {
    case ScanKind::Sum: return f(SumOp<Acc>{});
    case ScanKind::Prod: return f(ProdOp<Acc>{});
  }
}

// Calls loop.run<T, Out>(it, ops) with the functor that serves `kind` on input element type T
// and Out, the values' storage type. The CPU and CUDA reduce kernels both dispatch here, so each
// kind runs the same functor on every device.
template <class T, class Loop>
void dispatch_reduce_typed(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                           const kernels::ReduceParams& params, const Loop& loop) {
  using M = opmath_t<T>;
  using SumAcc = sum_acc_t<M>;
  using SumOut = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
  // Mean, Var, Std, LogSumExp and Norm have floating kernels only: the front halves convert
  // integer inputs (or refuse them) first.
  constexpr bool kFloat = kIsFloat<M>;
  switch (kind) {
    case ReduceKind::Sum: return loop.template run<T, SumOut>(it, SumOp<SumAcc>{});
    case ReduceKind::Prod: return loop.template run<T, SumOut>(it, ProdOp<SumAcc>{});
    case ReduceKind::Max: return loop.template run<T, T>(it, ExtremumOp<M, true>{});
    case ReduceKind::Min: return loop.template run<T, T>(it, ExtremumOp<M, false>{});
    case ReduceKind::ArgMax: return loop.template run<T, T>(it, ArgExtremumOp<M, true>{});
    case ReduceKind::ArgMin: return loop.template run<T, T>(it, ArgExtremumOp<M, false>{});
    case ReduceKind::Any: return loop.template run<T, bool>(it, AnyAllOp<M>{false});
    case ReduceKind::All: return loop.template run<T, bool>(it, AnyAllOp<M>{true});
    case ReduceKind::Mean:
      if constexpr (kFloat) {
        const M count = static_cast<M>(it.geometry.reduced_numel);
        return loop.template run<T, T>(it, MeanOp<M>{{}, count});
      }
      break;
    case ReduceKind::Var:
      if constexpr (kFloat) return loop.template run<T, T>(it, VarOp{params.correction, false});
      break;
    case ReduceKind::Std:
      if constexpr (kFloat) return loop.template run<T, T>(it, VarOp{params.correction, true});
      break;
    case ReduceKind::LogSumExp:
      if constexpr (kFloat) return loop.template run<T, T>(it, LogSumExpOp<M>{});
      break;
    case ReduceKind::Norm:
      if constexpr (kFloat) return run_norm<T, M>(it, params.norm_p, loop);
      break;
  }
  EMBER_INTERNAL_ASSERT(false, "reduction without a kernel for this dtype");
}

// dispatch_reduce_typed on the input's dtype.
template <class Loop>
void dispatch_reduce(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                     const kernels::ReduceParams& params, const Loop& loop) {
  dispatch_dtype(it.input_dtype, "reduction", [&](auto tag) {
    dispatch_reduce_typed<typename decltype(tag)::type>(it, kind, params, loop);
  });
}

}  // namespace ember::kernels
