// Which optional instruction sets this CPU has, for choosing between copies of kernel files.
#pragma once

namespace ember::cpu {

// Note [CPU capabilities]
// ember's library is built for baseline x86-64 so it runs everywhere, but compute-bound kernels
// (reductions, softmax's exp) run about 1.5x faster with AVX2 + FMA. Such files are compiled a
// second time with -mavx2 -mfma into namespace ember::cpu::avx2 (src/CMakeLists.txt generates
// the wrapper), and register_cpu_kernels() lets that copy overwrite the baseline stub slots when
// the CPU reports both features: PyTorch's CPU_CAPABILITY scheme, without its dispatcher.
inline bool has_avx2() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

}  // namespace ember::cpu
