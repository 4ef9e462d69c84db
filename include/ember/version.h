// ember's version and build configuration, as shown by ember-smi.
#pragma once

#include <string>

#include "ember/macros.h"

namespace ember {

EMBER_API const char* version();     // "0.1.0"
EMBER_API const char* blas_name();   // the BLAS linked in, e.g. "OpenBLAS"
EMBER_API std::string build_info();  // one line: version, BLAS, CUDA, compiler

}  // namespace ember
