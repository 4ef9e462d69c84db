// DispatchStub: one function pointer per device type for an op family; an empty slot throws
// NotImplementedError naming the op and the device.
//
// Note [Stubs in their family's header]
// Each family's header (elementwise_stubs.h, reduce_stubs.h, shape_stubs.h, conv_stubs.h,
// linalg_stubs.h, optim_step.h) declares its kernels' signatures and defines their stubs as
// inline variables: constant-initialised, one object in the library, and no .cpp beside it.
#pragma once

#include <array>

#include "core/check.h"
#include "ember/device.h"
#include "kernels/register.h"

namespace ember::kernels {

template <class Fn>
class DispatchStub;

template <class R, class... Args>
class DispatchStub<R (*)(Args...)> {
 public:
  using Fn = R (*)(Args...);
  explicit constexpr DispatchStub(const char* name) : name_(name) {}

  void set(DeviceType type, Fn fn) { table_[static_cast<int>(type)] = fn; }

  R operator()(DeviceType type, Args... args) const {
    Fn fn = table_[static_cast<int>(type)];
    if (fn == nullptr) [[unlikely]]
      fn = slow_lookup(type);
    return fn(args...);
  }

 private:
  Fn slow_lookup(DeviceType type) const {
    detail::ensure_registered();
    Fn fn = table_[static_cast<int>(type)];
    EMBER_CHECK_T(NotImplementedError, fn != nullptr, "[", name_, "] is not implemented for ", type,
                  " tensors in this build of ember");
    return fn;
  }

  const char* name_;
  std::array<Fn, kNumDeviceTypes> table_{};
};

}  // namespace ember::kernels
