// Registration hooks of the CPU kernel files, called by register_cpu_kernels().
#pragma once

namespace ember::cpu {

void register_binary_kernels();       // binary_kernels.cpp: arithmetic and comparisons
void register_unary_kernels();        // unary_kernels.cpp: unary ops, clamp, where
void register_copy_kernels();         // copy_kernels.cpp: copy, fill, random
void register_linalg_kernels();       // linalg_kernels.cpp: matmul through BLAS
void register_shape_kernels();        // shape_kernels.cpp: cat, index, gather, scatter, sort
void register_conv_kernels();         // conv_kernels.cpp: im2col, col2im, max pooling

// Compiled once per CPU capability (cpu/capability.h): reductions, softmax, cumsum.
namespace baseline {
void register_reduce_kernels();  // reduce_kernels.cpp
}
namespace avx2 {
void register_reduce_kernels();  // the same file built with -mavx2 -mfma
}

}  // namespace ember::cpu
