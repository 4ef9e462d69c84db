// Which optional instruction sets this CPU has, for choosing between copies of kernel files.
#pragma once

namespace ember::cpu {

// Note [CPU capabilities]
// ember's library is built for baseline x86-64 so it runs everywhere, but compute-bound kernels
// (reductions, softmax's exp) run 1.5x faster with AVX2 + FMA and up to 1.5x faster again with
// AVX-512, and even memory-bound elementwise loops gain from wider loads (a float add in place
// over 64 MiB: 54 GB/s from the SSE2 loop, 62 GB/s from the AVX-512 one). Such files (reductions
// and softmax, binary arithmetic, unary ops, clamp and where; cpu/vector_copy.h) are compiled
// again with those flags into namespaces ember::cpu::avx2 and ember::cpu::avx512
// (src/CMakeLists.txt generates the wrappers), and register_cpu_kernels() lets the best copy the
// CPU supports overwrite the baseline stub slots: PyTorch's CPU_CAPABILITY scheme, without its
// dispatcher. The vector copies serve float32 and float64 only, where the width pays and where
// models spend their time; every other dtype, comparisons, the unary ops that call libm and the
// reductions no vector speeds up (Note [Reductions in the vector copies]) go to the baseline
// copy, which keeps most of the compile time out of each extra copy (the elementwise copies add
// 8 s of CPU time to a clean build of the library).
//
// EMBER_CPU_CAPABILITY=baseline|avx2|avx512 caps the copy used (as PyTorch's
// ATEN_CPU_CAPABILITY), so tests check every copy on one machine and a user can rule one out.
enum class Capability { Baseline, Avx2, Avx512 };

// The best copy this build has and this CPU runs.
Capability supported_capability();
// The copy in use: supported_capability() capped by EMBER_CPU_CAPABILITY, read once.
Capability capability();
const char* capability_name(Capability c);

}  // namespace ember::cpu
