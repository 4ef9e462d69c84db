// CUDA kernels of the binary family (ops/binary_table.h): kernels/elementwise_kernels.h
// through gpu_kernel, the same dispatch and functors as the CPU's.
#include "cuda/kernels.h"
#include "cuda/loops.cuh"
#include "kernels/elementwise_kernels.h"

namespace ember::cuda {

void register_binary_kernels() { kernels::register_binary_kernels<GpuLoop>(DeviceType::CUDA); }

}  // namespace ember::cuda
