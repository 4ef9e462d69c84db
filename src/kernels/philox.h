// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
// generator, so element i's random bits depend only on (seed, offset + i) and any thread, on the
// CPU or the GPU, can produce them independently.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ember/macros.h"

namespace ember::kernels {

struct Philox4x32 {
  uint32_t x[4];

  EMBER_HOST_DEVICE Philox4x32(uint64_t seed, uint64_t counter) {
    uint32_t c[4] = {static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32), 0, 0};
    uint32_t k[2] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
    for (int r = 0; r < 10; ++r) {
      uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c[0];
      uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c[2];
      uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0];
      uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1];
      c[0] = n0;
      c[1] = static_cast<uint32_t>(p1);
      c[2] = n2;
      c[3] = static_cast<uint32_t>(p0);
      k[0] += 0x9E3779B9u;
      k[1] += 0xBB67AE85u;
    }
    for (int i = 0; i < 4; ++i) x[i] = c[i];
  }
  EMBER_HOST_DEVICE uint64_t u64(int half) const {
    return (static_cast<uint64_t>(x[2 * half]) << 32) | x[2 * half + 1];
  }
};

// Element i's 64 random bits for uniform and integer draws.
EMBER_HOST_DEVICE inline uint64_t random_bits(uint64_t seed, uint64_t offset, uint64_t i) {
  return Philox4x32(seed, offset + i / 2).u64(static_cast<int>(i % 2));
}
// A uniform double in [0, 1) from 53 bits; floats take the top 24 bits so they never round to 1.
EMBER_HOST_DEVICE inline double uniform_double(uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}
EMBER_HOST_DEVICE inline float uniform_float(uint64_t bits) {
  return static_cast<float>(bits >> 40) * 0x1.0p-24f;
}
// Element i of a standard normal stream (Box-Muller on one counter per element).
EMBER_HOST_DEVICE inline double normal_double(uint64_t seed, uint64_t offset, uint64_t i) {
  Philox4x32 r(seed, offset + i);
  double u1 = 1.0 - uniform_double(r.u64(0));  // (0, 1]: log is finite
  double u2 = uniform_double(r.u64(1));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586476925 * u2);
}

// Note [CPU and CUDA random streams]
// The values below are what the CPU kernel (cpu/copy_kernels.cpp) stores before converting to
// the tensor's dtype, and the CUDA kernel calls them too, so a CUDA tensor drawn after
// manual_seed(s) equals the CPU tensor drawn after manual_seed(s) (PyTorch's streams differ):
// uniform and integer draws bit for bit. Normal draws go through log and cos, whose last bit
// differs between the host's libm and CUDA's, so float64 normals agree to about 1e-15 relative
// and narrower dtypes are all but always equal.

// a + b * c with two roundings, as the CPU computes it: nvcc would contract it into one fma
// (one rounding), and the GPU's numbers would differ from the CPU's in the last bit.
EMBER_HOST_DEVICE inline double mul_add_unfused(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, __dmul_rn(b, c));
#else
  return a + b * c;
#endif
}

// A uniform draw's value in [a, b) from an element's random_bits: 53 of them for double, 24 for
// the other dtypes.
template <class T>
EMBER_HOST_DEVICE inline double uniform_value(double a, double b, uint64_t bits) {
  if constexpr (std::is_same_v<T, double>) return mul_add_unfused(a, b - a, uniform_double(bits));
  else return mul_add_unfused(a, b - a, static_cast<double>(uniform_float(bits)));
}
// An integer draw's value in [a, b) from an element's random_bits, exact in int64 (random_()
// on a Long tensor draws from [0, 2^63), whose values a double would round).
EMBER_HOST_DEVICE inline int64_t integer_value(double a, double b, uint64_t bits) {
  const uint64_t range = static_cast<uint64_t>(b - a);
  return static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(a)) + bits % range);
}
// Element i of a normal draw with mean a and standard deviation b.
EMBER_HOST_DEVICE inline double normal_value(double a, double b, uint64_t seed, uint64_t offset,
                                             uint64_t i) {
  return mul_add_unfused(a, b, normal_double(seed, offset, i));
}

}  // namespace ember::kernels
