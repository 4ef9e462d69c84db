// register_cuda_kernels: fills the CUDA slot of every op-family stub (a stub left empty would
// throw NotImplementedError: "[op] is not implemented for cuda").
#include "cuda/kernels.h"
#include "kernels/register.h"

namespace ember::detail {

void register_cuda_kernels() {
  cuda::register_binary_kernels();
  cuda::register_unary_kernels();
  cuda::register_copy_kernels();
  cuda::register_linalg_kernels();
  cuda::register_random_kernels();
  cuda::register_conv_kernels();
  cuda::register_shape_kernels();
  cuda::register_reduce_kernels();
  cuda::register_optim_kernels();
  cuda::register_rnn_kernels();
}

}  // namespace ember::detail
