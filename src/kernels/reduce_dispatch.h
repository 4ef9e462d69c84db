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

// Calls loop.run<T, Out>(it, ops) with the functor that serves `kind` on input element type T
// and Out, the values' storage type. The CPU and CUDA reduce kernels both dispatch here, so each
// kind runs the same functor on every device.
template <class T, class Loop>
void dispatch_reduce_typed(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                           const kernels::ReduceParams& params, const Loop& loop) {
  using M = opmath_t<T>;
  using SumAcc = sum_acc_t<M>;
  using SumOut = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
  switch (kind) {
    case ReduceKind::Sum: return loop.template run<T, SumOut>(it, SumOp<SumAcc>{});
    case ReduceKind::Prod: return loop.template run<T, SumOut>(it, ProdOp<SumAcc>{});
    case ReduceKind::Max: return loop.template run<T, T>(it, ExtremumOp<M, true>{});
    case ReduceKind::Min: return loop.template run<T, T>(it, ExtremumOp<M, false>{});
    case ReduceKind::ArgMax: return loop.template run<T, T>(it, ArgExtremumOp<M, true>{});
    case ReduceKind::ArgMin: return loop.template run<T, T>(it, ArgExtremumOp<M, false>{});
    case ReduceKind::Any: return loop.template run<T, bool>(it, AnyAllOp<M>{false});
    case ReduceKind::All: return loop.template run<T, bool>(it, AnyAllOp<M>{true});
    default: break;
  }
  if constexpr (kIsFloat<M>) {
    const M p = static_cast<M>(params.norm_p);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    switch (kind) {
      case ReduceKind::Mean: {
        const M count = static_cast<M>(it.geometry.reduced_numel);
        return loop.template run<T, T>(it, MeanOp<M>{{}, count});
      }
      case ReduceKind::Var: return loop.template run<T, T>(it, VarOp{params.correction, false});
      case ReduceKind::Std: return loop.template run<T, T>(it, VarOp{params.correction, true});
      case ReduceKind::LogSumExp: return loop.template run<T, T>(it, LogSumExpOp<M>{});
      case ReduceKind::Norm:
        if (params.norm_p == 0) return loop.template run<T, T>(it, NormOp<M, NormKind::Zero>{p});
        if (params.norm_p == 1) return loop.template run<T, T>(it, NormOp<M, NormKind::One>{p});
        if (params.norm_p == 2) return loop.template run<T, T>(it, NormOp<M, NormKind::Two>{p});
        if (params.norm_p == kInf)
          return loop.template run<T, T>(it, NormOp<M, NormKind::Inf>{p});
        if (params.norm_p == -kInf)
          return loop.template run<T, T>(it, NormOp<M, NormKind::NegInf>{p});
        return loop.template run<T, T>(it, NormOp<M, NormKind::General>{p});
      default: break;
    }
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
