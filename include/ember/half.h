// Half (IEEE float16) and BFloat16 storage types: stored natively, computed in float.
#pragma once

#include <cstdint>
#include <cstring>

#include "ember/macros.h"

namespace ember {
namespace detail {
EMBER_HOST_DEVICE inline uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
EMBER_HOST_DEVICE inline float f32_from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace detail

struct Half {
  uint16_t bits = 0;
  Half() = default;
  EMBER_HOST_DEVICE Half(float f) : bits(from_float(f)) {}  // NOLINT: implicit like c10::Half
  EMBER_HOST_DEVICE operator float() const { return to_float(bits); }

  // Round-to-nearest-even conversion; NaN stays NaN, overflow becomes infinity.
  EMBER_HOST_DEVICE static uint16_t from_float(float f) {
    uint32_t x = detail::f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    x &= 0x7fffffffu;
    if (x >= 0x47800000u)  // too large for half (infinity), or NaN
      return static_cast<uint16_t>(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (x < 0x38800000u) {  // subnormal half (or zero): add 0.5 so float rounding does the work
      float r = detail::f32_from_bits(x) + 0.5f;
      return static_cast<uint16_t>(sign | (detail::f32_bits(r) - 0x3f000000u));
    }
    uint32_t mant_odd = (x >> 13) & 1u;
    x += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
    return static_cast<uint16_t>(sign | (x >> 13));
  }
  EMBER_HOST_DEVICE static float to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return detail::f32_from_bits(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {  // zero or subnormal: value = mant * 2^-24
      float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
    return detail::f32_from_bits(sign | ((exp + 112) << 23) | (mant << 13));
  }
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  EMBER_HOST_DEVICE BFloat16(float f) : bits(from_float(f)) {}  // NOLINT
  EMBER_HOST_DEVICE operator float() const {
    return detail::f32_from_bits(static_cast<uint32_t>(bits) << 16);
  }
  EMBER_HOST_DEVICE static uint16_t from_float(float f) {
    uint32_t x = detail::f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;  // NaN
    x += 0x7fffu + ((x >> 16) & 1u);                     // round to nearest even
    return static_cast<uint16_t>(x >> 16);
  }
};

}  // namespace ember
