// ember's version and build configuration, as shown by ember-smi.
#pragma once

#include <string>

#include "ember/macros.h"

namespace ember {

EMBER_API const char* version();  // "0.1.0"
// The BLAS this process runs and its file, e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell
// MAX_THREADS=64 (/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so)", or
// "reference BLAS (...)": the slow netlib one.
EMBER_API const char* blas_name();
EMBER_API std::string build_info();  // one line: version, BLAS, CUDA, compiler
// The vectorised CPU kernels in use: "avx512", "avx2" or "baseline" (PyTorch's
// get_cpu_capability()); the environment variable EMBER_CPU_CAPABILITY caps it.
EMBER_API const char* cpu_capability();

}  // namespace ember
