// Helpers shared by the tests: run a body on every device, skip visibly without a GPU, and
// compare tensors with values computed independently.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace ember::test {

// CPU plus every visible GPU.
inline std::vector<Device> all_devices() {
  std::vector<Device> devices{Device::cpu()};
  for (int i = 0; i < cuda::device_count(); ++i) devices.push_back(Device::cuda(i));
  return devices;
}

// Skips a GPU test where no GPU is usable. On a GPU machine (bench/gpu.sh sets
// EMBER_REQUIRE_CUDA=1) the same test fails instead, so a driver too old for the build's CUDA
// cannot turn the whole GPU suite into skips that CTest counts as passes.
inline bool cuda_required() {
  const char* env = std::getenv("EMBER_REQUIRE_CUDA");
  return env != nullptr && std::string(env) == "1";
}

#define EMBER_SKIP_IF_NO_CUDA()                                                      \
  do {                                                                               \
    if (!::ember::cuda::is_available()) {                                            \
      if (::ember::test::cuda_required())                                            \
        FAIL() << "EMBER_REQUIRE_CUDA=1 but no CUDA GPU is usable: "                 \
               << ::ember::cuda::unavailable_reason();                               \
      GTEST_SKIP() << "no usable CUDA GPU: " << ::ember::cuda::unavailable_reason(); \
    }                                                                                \
  } while (0)

// Expects t to hold exactly `expected` (row-major) with the given shape.
template <class T>
void expect_values(const Tensor& t, IntArrayRef shape, const std::vector<T>& expected) {
  ASSERT_EQ(t.sizes(), shape) << "shape";
  std::vector<T> got = t.to_vector<T>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "at flat index " << i;
}

// Expects |t - expected| <= atol + rtol * |expected| elementwise (as float64).
inline void expect_close(const Tensor& t, IntArrayRef shape, const std::vector<double>& expected,
                         double rtol = 1e-6, double atol = 1e-6) {
  ASSERT_EQ(t.sizes(), shape) << "shape";
  std::vector<double> got = t.to_vector<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], atol + rtol * std::abs(expected[i])) << "at flat index " << i;
}

// The message of the ember::Error that `fn` throws ("" if none).
template <class E = Error, class F>
std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// The address `offset` bytes into the block at `ptr` (the allocator tests' arithmetic).
inline char* byte_at(void* ptr, size_t offset) { return static_cast<char*>(ptr) + offset; }

}  // namespace ember::test
