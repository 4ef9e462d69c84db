// Version and build configuration strings (filled in by CMake).
#include "ember/version.h"

#include "ember/cuda.h"

#ifndef EMBER_VERSION_STRING
#error "EMBER_VERSION_STRING must be defined by the build"
#endif
#ifndef EMBER_BLAS_STRING
#error "EMBER_BLAS_STRING must be defined by the build"
#endif

namespace ember {

const char* version() { return EMBER_VERSION_STRING; }
const char* blas_name() { return EMBER_BLAS_STRING; }

std::string build_info() {
  std::string s = std::string("ember ") + version() + ", BLAS: " + blas_name() +
                  ", CUDA: " + (cuda::built_with_cuda() ? "compiled in" : "not compiled in");
#if defined(__clang__)
  s += ", clang " __clang_version__;
#elif defined(__GNUC__)
  s += ", g++ " __VERSION__;
#endif
  return s;
}

}  // namespace ember
