// CPU kernels of the binary arithmetic and comparison families: kernels/elementwise_kernels.h
// through cpu_kernel.
#include "cpu/kernels.h"
#include "cpu/loops.h"
#include "kernels/elementwise_kernels.h"

namespace ember::cpu {

void register_binary_kernels() {
  kernels::register_binary_and_compare_kernels<CpuLoop>(DeviceType::CPU);
}

}  // namespace ember::cpu
