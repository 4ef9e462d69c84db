// Transcendental functions that compilers vectorise: the float forms are polynomials with bit
// tricks instead of libm calls (one scalar call per element), for the loops that apply them to
// every element (softmax, the recurrent cells). Compiled by g++ and nvcc.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ember/macros.h"

namespace ember::kernels {

// exp: float uses a Cephes-style polynomial that compilers vectorise (std::exp is a
// scalar libm call), within 1 ulp of exp including subnormal results; doubles use std::exp.
// Out-of-range arguments are patched with bit masks rather than branches or clamps: compilers
// will not speculate floating arithmetic that may trap, so a branch (or a clamp they thread
// through) would keep the loop scalar. NaN propagates through the arithmetic.
EMBER_HOST_DEVICE inline float fast_exp(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  constexpr float kMaxArg = 88.7228394f;      // log(FLT_MAX): above it exp is inf
  constexpr float kMinArg = -104.0f;          // below it exp rounds to 0
  constexpr float kRoundMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const uint32_t keep = 0u - static_cast<uint32_t>(!(x < kMinArg));
  const uint32_t overflow = 0u - static_cast<uint32_t>(x > kMaxArg);
  float shifted = x * kLog2e + kRoundMagic;
  float n = shifted - kRoundMagic;
  float r = x - n * kLn2Hi - n * kLn2Lo;  // |r| <= ln2 / 2
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // 2^n from the low mantissa bits of `shifted`, as two factors so that each is a normal float
  // over the whole range (n from -150 to 128).
  uint32_t shifted_bits;
  std::memcpy(&shifted_bits, &shifted, sizeof shifted_bits);
  int32_t n_int = static_cast<int32_t>(shifted_bits - 0x4b400000u);
  int32_t low_half = n_int >> 1;
  int32_t low_bits = (low_half + 127) << 23, high_bits = (n_int - low_half + 127) << 23;
  float low_scale, high_scale;
  std::memcpy(&low_scale, &low_bits, sizeof low_scale);
  std::memcpy(&high_scale, &high_bits, sizeof high_scale);
  float result = p * low_scale * high_scale;
  uint32_t bits;
  std::memcpy(&bits, &result, sizeof bits);
  bits = ((bits & ~overflow) | (0x7f800000u & overflow)) & keep;  // inf above, 0 below the range
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

// tanh, Cephes-style: an odd polynomial below |x| = 0.625, 1 - 2 / (e^2x + 1) above, within 3 ulp
// of tanh. Both are computed and one is picked by a bit mask (a ?: becomes a branch around the
// division, which keeps the loop scalar). NaN propagates.
EMBER_HOST_DEVICE inline float fast_tanh(float x) {
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = p * z * x + x;
  const float large = 1.0f - 2.0f / (fast_exp(2.0f * x) + 1.0f);
  const uint32_t use_small = 0u - static_cast<uint32_t>(std::fabs(x) < 0.625f);
  uint32_t small_bits, large_bits;
  std::memcpy(&small_bits, &small, sizeof small_bits);
  std::memcpy(&large_bits, &large, sizeof large_bits);
  const uint32_t bits = (small_bits & use_small) | (large_bits & ~use_small);
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

// The vectorisable form for float, std:: for the other opmath types (double).
template <class T>
EMBER_HOST_DEVICE inline T vector_exp(T x) {
  if constexpr (std::is_same_v<T, float>) return fast_exp(x);
  else return std::exp(x);
}
template <class T>
EMBER_HOST_DEVICE inline T vector_tanh(T x) {
  if constexpr (std::is_same_v<T, float>) return fast_tanh(x);
  else return std::tanh(x);
}
template <class T>
EMBER_HOST_DEVICE inline T vector_sigmoid(T x) {
  return T(1) / (T(1) + vector_exp(-x));
}

}  // namespace ember::kernels
