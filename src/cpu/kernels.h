// Registration hooks of the CPU kernel files, called by register_cpu_kernels().
#pragma once

#include "cpu/capability.h"
#include "ember/macros.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu {

void register_binary_kernels();       // binary_kernels.cpp: arithmetic and comparisons
void register_unary_kernels();        // unary_kernels.cpp: unary ops, clamp, where
void register_copy_kernels();         // copy_kernels.cpp: copy, fill, random
void register_linalg_kernels();       // linalg_kernels.cpp: matmul through BLAS
void register_shape_kernels();        // shape_kernels.cpp: cat, index, gather, scatter, sort
void register_conv_kernels();         // conv_kernels.cpp: im2col, col2im, max pooling
void register_cumsum_kernels();       // cumsum_kernels.cpp
void register_optim_kernels();        // optim_kernels.cpp: fused optimizer updates

// Compiled once per CPU capability (Note [CPU capabilities] in cpu/capability.h): reductions and
// softmax. The baseline copy serves every dtype; the vector copies serve float32 and float64 and
// call the baseline kernels for the rest.
namespace baseline {
void register_reduce_kernels();  // reduce_kernels.cpp
void reduce_kernel(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                   const kernels::ReduceParams& params);
void softmax_kernel(const Tensor& in, const Tensor& out, int64_t dim, bool log);
}  // namespace baseline
namespace avx2 {
void register_reduce_kernels();  // the same file built with -mavx2 -mfma
}
namespace avx512 {
void register_reduce_kernels();  // the same file built with AVX-512 (F, VL, BW, DQ) and FMA
}
// Registers the baseline copy, then copy `c` over it; c is at most supported_capability().
// register_cpu_kernels() passes capability(); tests switch between copies with it.
EMBER_API void register_reduce_kernels(Capability c);

}  // namespace ember::cpu
