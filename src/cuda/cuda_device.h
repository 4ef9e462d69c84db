// ember's CUDA device state, shared by the files of src/cuda: ordinal checks, the scope that makes
// a device the runtime's current one (Note [Lazy CUDA contexts]), and each device's allocator.
#pragma once

#include <new>
#include <string>

#include "core/allocator.h"

namespace ember::detail {
class HostCachingAllocator;
}

namespace ember::cuda::impl {

// ember's device indices are int8_t (Device), so at most 128 CUDA devices are addressable.
inline constexpr int kMaxDevices = 128;

// Throws CudaError without a usable GPU ("No CUDA GPUs are available") or for a bad ordinal.
void check_index(int index);
// `index`, or this thread's current device when it is negative; throws without a usable GPU.
int index_or_current(int index);
// "0000:01:00.0", the id by which the driver's other tools (NVML) know a valid device index.
std::string pci_bus_id(int index);

// A device on which ember made a context: this thread's current device if it has one, else the
// lowest such device, else the current device (PyTorch's getDeviceIndexWithPrimaryContext). For
// calls that work the same under any device's context (page-locking host memory, querying and
// destroying events of unknown device), so that they create no context of their own.
int device_with_context() noexcept;

// Makes `index` the CUDA runtime's current device for the scope, creating its context on first
// use, then gives the runtime back its previous device if that one already has a context.
// Every kernel launch opens one, so it asks the runtime for its device once and, when that is
// `index` already, changes nothing.
class RuntimeDeviceScope {
 public:
  explicit RuntimeDeviceScope(int index);
  // For frees and other calls that must not throw: failures are left to the CUDA calls inside.
  RuntimeDeviceScope(int index, std::nothrow_t) noexcept;
  ~RuntimeDeviceScope();
  RuntimeDeviceScope(const RuntimeDeviceScope&) = delete;
  RuntimeDeviceScope& operator=(const RuntimeDeviceScope&) = delete;

 private:
  int previous_ = -1;  // the runtime's device to give back, -1 when the scope did not move it
};

// The number of multiprocessors of a valid device index, asked once per device.
int multiprocessor_count(int index);

// The caching allocator of a valid device index (cuda_memory.cpp).
::ember::detail::Allocator& device_allocator(int index);

// Page-locked host memory, cached (cuda_host_memory.cpp); only for use with a usable GPU.
::ember::detail::HostCachingAllocator& host_allocator();
// Whether CUDA has `ptr` page-locked, by ember or by whoever made a from_blob buffer.
bool is_page_locked(const void* ptr) noexcept;

}  // namespace ember::cuda::impl
