// Helpers of the parity tests that run an op on every visible GPU and on the CPU and compare:
// the GPUs, the dtype lists, and expect_parity with per-dtype tolerances.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember::parity {

inline const std::vector<ScalarType> kAllDTypes = {kBool,  kUInt8,   kInt8,     kInt16,   kInt32,
                                                   kInt64, kFloat16, kBFloat16, kFloat32, kFloat64};
inline const std::vector<ScalarType> kFloatDTypes = {kFloat16, kBFloat16, kFloat32, kFloat64};
inline const std::vector<ScalarType> kIntDTypes = {kUInt8, kInt8, kInt16, kInt32, kInt64};

inline bool is_floating(ScalarType t) {
  return t == kFloat16 || t == kBFloat16 || t == kFloat32 || t == kFloat64;
}

inline std::vector<Device> gpus() {
  std::vector<Device> out;
  for (Device d : test::all_devices())
    if (d.is_cuda()) out.push_back(d);
  return out;
}

// A leaf of t's values on d, for a gradient to reach: to() returns t itself when it is already
// there, so marking that result would make t a leaf that requires grad, and its copy to the next
// device a non-leaf whose grad() stays undefined (as in PyTorch).
inline Tensor leaf_on(const Tensor& t, Device d) { return t.to(d).detach().requires_grad_(); }

// Random values of `dtype`: small integers (ties for the extrema, exact sums; non-negative for
// uint8) or signed floats.
inline Tensor sample(IntArrayRef shape, ScalarType dtype) {
  if (dtype == kBool) return randint(0, 2, shape).to(kBool);
  if (dtype == kUInt8) return randint(0, 12, shape).to(dtype);
  if (!is_floating(dtype)) return randint(-12, 12, shape).to(dtype);
  return mul(randn(shape), 4).to(dtype);
}

// Relative and absolute tolerance of a floating result that sums products, by dtype.
inline double default_tolerance(ScalarType t) {
  return t == kBFloat16 ? 2e-2 : t == kFloat16 ? 2e-3 : t == kFloat32 ? 1e-5 : 1e-12;
}

// The relative and absolute tolerance a floating result of each dtype is held to.
using Tolerance = std::function<double(ScalarType)>;

// Runs `op` on the CPU and on `device` and compares every result: integer and bool ones exactly,
// floating ones within tolerance(dtype) (0 asks for equal values, NaNs matching NaNs). An op the
// CPU refuses must be refused on the GPU too.
inline void expect_parity_each(const std::string& what, Device device,
                               const std::function<std::vector<Tensor>(Device)>& op,
                               const Tolerance& tolerance) {
  std::vector<Tensor> cpu;
  try {
    cpu = op(Device::cpu());
  } catch (const Error&) {
    EXPECT_THROW(op(device), Error) << what;
    return;
  }
  std::vector<Tensor> gpu = op(device);
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  for (size_t k = 0; k < cpu.size(); ++k) {
    ASSERT_EQ(gpu[k].device(), device) << what;
    ASSERT_EQ(gpu[k].scalar_type(), cpu[k].scalar_type()) << what;
    ASSERT_EQ(gpu[k].sizes(), cpu[k].sizes()) << what;
    Tensor back = gpu[k].cpu();
    if (!is_floating(cpu[k].scalar_type())) {
      EXPECT_TRUE(equal(back, cpu[k])) << what << "\ncuda: " << back << "\ncpu: " << cpu[k];
      continue;
    }
    const double tol = tolerance(cpu[k].scalar_type());
    EXPECT_TRUE(allclose(back.to(kFloat64), cpu[k].to(kFloat64), tol, tol, /*equal_nan=*/true))
        << what << "\ncuda: " << back << "\ncpu: " << cpu[k];
  }
}

// One result, within `tol` (default_tolerance when negative).
inline void expect_parity(const std::string& what, Device device,
                          const std::function<Tensor(Device)>& op, double tol = -1) {
  expect_parity_each(
      what, device, [&](Device d) { return std::vector<Tensor>{op(d)}; },
      [tol](ScalarType t) { return tol < 0 ? default_tolerance(t) : tol; });
}

inline std::string label(const std::string& op, ScalarType dtype, Device device) {
  return op + " " + toString(dtype) + " on " + device.str();
}

}  // namespace ember::parity
