// CPU kernels of the unary family, clamp and where: kernels/elementwise_kernels.h through
// cpu_kernel.
#include "cpu/kernels.h"
#include "cpu/loops.h"
#include "kernels/elementwise_kernels.h"

namespace ember::cpu {

void register_unary_kernels() {
  kernels::register_unary_clamp_where_kernels<CpuLoop>(DeviceType::CPU);
}

}  // namespace ember::cpu
