// The prologue of a kernel file compiled once per CPU capability (Note [CPU capabilities] in
// cpu/capability.h). The build defines EMBER_CPU_CAPABILITY (avx2, avx512) for a vector copy; the
// plain compile of the file is the baseline copy. Each copy defines its kernels in namespace
// ember::cpu::EMBER_CPU_CAPABILITY; the baseline serves every dtype, a vector copy
// (EMBER_CPU_VECTOR_COPY) serves float32 and float64 and hands the rest to the baseline.
#pragma once

#ifdef EMBER_CPU_CAPABILITY
#define EMBER_CPU_VECTOR_COPY 1
#else
#define EMBER_CPU_CAPABILITY baseline
#endif
