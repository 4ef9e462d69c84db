// CPU kernels of the binary arithmetic and comparison families: kernels/elementwise_kernels.h
// through cpu_kernel, with vector copies of the arithmetic for float32 and float64 (Note [CPU
// capabilities]); comparisons stay in the baseline copy.
#include "cpu/kernels.h"
#include "cpu/loops.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/elementwise_kernels.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {

void binary_kernel(kernels::TensorIter& it, kernels::BinaryOp op, Scalar alpha) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (it.dtypes[1] == kFloat32) return kernels::binary_typed<CpuLoop, float>(it, op, alpha);
  if (it.dtypes[1] == kFloat64) return kernels::binary_typed<CpuLoop, double>(it, op, alpha);
  baseline::binary_kernel(it, op, alpha);
#else
  kernels::binary_kernel<CpuLoop>(it, op, alpha);
#endif
}

void register_binary_kernels() {
  kernels::binary_stub.set(DeviceType::CPU, &binary_kernel);
#ifndef EMBER_CPU_VECTOR_COPY
  kernels::compare_stub.set(DeviceType::CPU, &kernels::compare_kernel<CpuLoop>);
#endif
}

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
