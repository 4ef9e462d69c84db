// CUDA kernels of the binary arithmetic and comparison families: kernels/elementwise_kernels.h
// through gpu_kernel, the same dispatch and functors as the CPU's.
#include "cuda/kernels.h"
#include "cuda/loops.cuh"
#include "kernels/elementwise_kernels.h"

namespace ember::cuda {

void register_binary_kernels() {
  kernels::register_binary_and_compare_kernels<GpuLoop>(DeviceType::CUDA);
}

}  // namespace ember::cuda
