// CPU kernels of the binary family (ops/binary_table.h): kernels/elementwise_kernels.h through
// this copy's loop, compiled once per CPU capability (Note [CPU capabilities]).
#include "cpu/elementwise_loop.h"
#include "cpu/kernels.h"
#include "kernels/elementwise_kernels.h"

namespace ember::kernels {
// The vector copies call the baseline copy's kernel for the dtypes they do not serve.
#ifdef EMBER_CPU_VECTOR_COPY
extern template void binary_kernel<cpu::baseline::ElementwiseLoop>(TensorIter&, BinaryOp, Scalar);
#else
template void binary_kernel<cpu::baseline::ElementwiseLoop>(TensorIter&, BinaryOp, Scalar);
#endif
}  // namespace ember::kernels

namespace ember::cpu::EMBER_CPU_CAPABILITY {

void register_binary_kernels() {
  kernels::register_binary_kernels<ElementwiseLoop>(DeviceType::CPU);
}

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
