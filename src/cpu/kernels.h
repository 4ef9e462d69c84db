// Registration hooks of the CPU kernel files, called by register_cpu_kernels().
#pragma once

#include <optional>

#include "cpu/capability.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu {

void register_copy_kernels();    // copy_kernels.cpp: copy, fill, random
void register_linalg_kernels();  // linalg_kernels.cpp: matmul through BLAS
void register_shape_kernels();   // shape_kernels.cpp: cat, index, gather, scatter, sort
void register_conv_kernels();    // conv_kernels.cpp: im2col, col2im, max pooling
void register_scan_kernels();    // scan_kernels.cpp
void register_optim_kernels();   // optim_kernels.cpp: fused optimizer updates
void register_rnn_kernels();     // rnn_kernels.cpp: fused LSTM and GRU cells

// Compiled once per CPU capability (Note [CPU capabilities] in cpu/capability.h): reductions and
// softmax, and the elementwise ops of the tables, clamp and where. The baseline copy serves every
// dtype; the vector copies serve float32 and float64 and call the baseline kernels for the rest.
namespace baseline {
void register_reduce_kernels();  // reduce_kernels.cpp and reduce_*_kernels.cpp
void reduce_kernel(const kernels::ReduceIter& it, kernels::ReduceKind kind,
                   const kernels::ReduceParams& params);
void register_softmax_kernels();  // softmax_kernels.cpp
void softmax_kernel(const Tensor& in, const Tensor& out, int64_t dim, bool log);
void register_binary_kernels();  // binary_kernels.cpp: ops/binary_table.h
void register_unary_kernels();   // unary_kernels.cpp: ops/unary_table.h, clamp, where
}  // namespace baseline
namespace avx2 {  // the same files built with -mavx2 -mfma
void register_reduce_kernels();
void register_softmax_kernels();
void register_binary_kernels();
void register_unary_kernels();
}  // namespace avx2
namespace avx512 {  // the same files built with AVX-512 (F, VL, BW, DQ) and FMA
void register_reduce_kernels();
void register_softmax_kernels();
void register_binary_kernels();
void register_unary_kernels();
}  // namespace avx512
// Makes copy `c` serve the kernels above, in place of capability(); c is at most
// supported_capability(). Tests switch between copies with it.
void select_capability(Capability c);

}  // namespace ember::cpu
