// Version and build configuration strings (filled in by CMake, the BLAS asked at run time).
#include "ember/version.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "ember/cuda.h"

#ifndef EMBER_VERSION_STRING
#error "EMBER_VERSION_STRING must be defined by the build"
#endif
#ifndef EMBER_BLAS_STRING
#error "EMBER_BLAS_STRING must be defined by the build"
#endif

namespace ember {
namespace {

// Note [Naming the BLAS]: which BLAS runs is settled when the program starts, not when ember is
// built: Debian's libblas.so.3 and libopenblas.so.0 are alternatives an administrator switches, so
// the name CMake gave (EMBER_BLAS_STRING, Note [Finding BLAS]) can be stale. The name therefore
// carries the real file that holds the dgemm_ ember calls, and OpenBLAS's own description (version,
// threading, the CPU core it tuned for) when that file is OpenBLAS. A BLAS linked statically into
// the program has no file to show and keeps CMake's name alone.
std::string linked_blas() {
  std::string name = EMBER_BLAS_STRING;
#ifdef EMBER_HAVE_BLAS
  Dl_info info{};
  void* gemm = dlsym(RTLD_DEFAULT, "dgemm_");
  if (gemm == nullptr || dladdr(gemm, &info) == 0 || info.dli_fname == nullptr) return name;
  if (void* library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
    using Config = const char* (*)();
    // Looked up in the library and its dependencies: Debian's OpenBLAS libblas.so.3 is a thin
    // front of libopenblas.so.0.
    if (auto config = reinterpret_cast<Config>(dlsym(library, "openblas_get_config")))
      name = config();  // "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"
    dlclose(library);
  }
  std::error_code error;
  const std::filesystem::path file = std::filesystem::canonical(info.dli_fname, error);
  name += " (" + (error ? std::string(info.dli_fname) : file.string()) + ")";
#endif
  return name;
}

}  // namespace

const char* version() { return EMBER_VERSION_STRING; }

const char* blas_name() {
  static const std::string name = linked_blas();
  return name.c_str();
}

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
