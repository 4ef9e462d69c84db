// CPU kernels of the unary family, clamp and where: kernels/elementwise_kernels.h through
// cpu_kernel, with vector copies for float32 and float64 (Note [CPU capabilities]) of all but the
// unary ops that call libm.
#include "cpu/kernels.h"
#include "cpu/loops.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/elementwise_kernels.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {

using kernels::TensorIter;

void unary_kernel(TensorIter& it, kernels::UnaryOp op) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (it.dtypes[1] == kFloat32 && kernels::unary_arithmetic<CpuLoop, float>(it, op)) return;
  if (it.dtypes[1] == kFloat64 && kernels::unary_arithmetic<CpuLoop, double>(it, op)) return;
  baseline::unary_kernel(it, op);
#else
  kernels::unary_kernel<CpuLoop>(it, op);
#endif
}

void clamp_kernel(TensorIter& it, std::optional<Scalar> lo, std::optional<Scalar> hi) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (it.dtypes[1] == kFloat32) return kernels::clamp_typed<CpuLoop, float>(it, lo, hi);
  if (it.dtypes[1] == kFloat64) return kernels::clamp_typed<CpuLoop, double>(it, lo, hi);
  baseline::clamp_kernel(it, lo, hi);
#else
  kernels::clamp_kernel<CpuLoop>(it, lo, hi);
#endif
}

void where_kernel(TensorIter& it) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (it.dtypes[0] == kFloat32) return kernels::where_typed<CpuLoop, float>(it);
  if (it.dtypes[0] == kFloat64) return kernels::where_typed<CpuLoop, double>(it);
  baseline::where_kernel(it);
#else
  kernels::where_kernel<CpuLoop>(it);
#endif
}

void register_unary_kernels() {
  kernels::unary_stub.set(DeviceType::CPU, &unary_kernel);
  kernels::clamp_stub.set(DeviceType::CPU, &clamp_kernel);
  kernels::where_stub.set(DeviceType::CPU, &where_kernel);
}

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
