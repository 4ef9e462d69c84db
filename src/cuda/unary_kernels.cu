// CUDA kernels of the unary family, clamp and where: kernels/elementwise_kernels.h through
// gpu_kernel, the same dispatch and functors as the CPU's.
#include "cuda/kernels.h"
#include "cuda/loops.cuh"
#include "kernels/elementwise_kernels.h"

namespace ember::cuda {

void register_unary_kernels() {
  kernels::register_unary_clamp_where_kernels<GpuLoop>(DeviceType::CUDA);
}

}  // namespace ember::cuda
