// The registration functions of the CUDA kernel files, called by register_cuda_kernels().
#pragma once

namespace ember::cuda {

void register_binary_kernels();
void register_unary_kernels();
void register_copy_kernels();
void register_linalg_kernels();
void register_random_kernels();
void register_conv_kernels();
void register_shape_kernels();
void register_reduce_kernels();
void register_optim_kernels();
void register_rnn_kernels();

}  // namespace ember::cuda
