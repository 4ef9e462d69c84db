// capability(): what the CPU supports, capped by EMBER_CPU_CAPABILITY.
#include "cpu/capability.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "ember/version.h"

namespace ember::cpu {
namespace {

Capability supported() {
#if EMBER_HAVE_VECTOR_KERNELS
  // libgcc's checks include whether the OS saves the AVX and AVX-512 registers.
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
    return Capability::Baseline;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
    return Capability::Avx512;
  return Capability::Avx2;
#else
  return Capability::Baseline;
#endif
}

// An unknown value caps nothing: the variable only ever rules copies out.
Capability requested() {
  const char* env = std::getenv("EMBER_CPU_CAPABILITY");
  if (env == nullptr) return Capability::Avx512;
  for (Capability c : {Capability::Baseline, Capability::Avx2})
    if (std::strcmp(env, capability_name(c)) == 0) return c;
  return Capability::Avx512;
}

}  // namespace

const char* capability_name(Capability c) {
  switch (c) {
    case Capability::Baseline: return "baseline";
    case Capability::Avx2: return "avx2";
    case Capability::Avx512: return "avx512";
  }
  return "baseline";
}

Capability supported_capability() {
  static const Capability c = supported();
  return c;
}

Capability capability() {
  static const Capability c = [] {
    Capability s = supported_capability(), r = requested();
    return static_cast<int>(r) < static_cast<int>(s) ? r : s;
  }();
  return c;
}

}  // namespace ember::cpu

const char* ember::cpu_capability() { return cpu::capability_name(cpu::capability()); }
