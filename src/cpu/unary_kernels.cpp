// CPU kernels of the unary family (ops/unary_table.h), clamp and where:
// kernels/elementwise_kernels.h through this copy's loop, compiled once per CPU capability
// (Note [CPU capabilities]).
#include <optional>

#include "cpu/elementwise_loop.h"
#include "cpu/kernels.h"
#include "kernels/elementwise_kernels.h"

namespace ember::kernels {
// The vector copies call the baseline copy's kernels for the dtypes they do not serve.
using Baseline = cpu::baseline::ElementwiseLoop;
#ifdef EMBER_CPU_VECTOR_COPY
extern template void unary_kernel<Baseline>(TensorIter&, UnaryOp, const UnaryParams&);
extern template void clamp_kernel<Baseline>(TensorIter&, std::optional<Scalar>,
                                            std::optional<Scalar>);
extern template void where_kernel<Baseline>(TensorIter&);
#else
template void unary_kernel<Baseline>(TensorIter&, UnaryOp, const UnaryParams&);
template void clamp_kernel<Baseline>(TensorIter&, std::optional<Scalar>, std::optional<Scalar>);
template void where_kernel<Baseline>(TensorIter&);
#endif
}  // namespace ember::kernels

namespace ember::cpu::EMBER_CPU_CAPABILITY {

void register_unary_kernels() {
  kernels::register_unary_clamp_where_kernels<ElementwiseLoop>(DeviceType::CPU);
}

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
