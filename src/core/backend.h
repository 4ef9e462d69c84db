// DeviceBackend: every service a device type provides (count, current device, memory, copies,
// synchronisation), one per DeviceType in a fixed table filled by explicit registration.
#pragma once

#include <cstddef>
#include <string>

#include "core/allocator.h"
#include "ember/device.h"

namespace ember::detail {

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  virtual int device_count() const noexcept = 0;
  virtual int current_device() = 0;
  virtual void set_device(int index) = 0;
  // Restores a device from a destructor (guards): never throws.
  virtual void unchecked_set_device(int index) noexcept = 0;
  // Throws the user-facing error for a device that cannot be used (bad ordinal, no GPU, ...).
  virtual void check_device(Device device) = 0;
  virtual Allocator& allocator(int index) = 0;
  // Copies nbytes between any two devices of which at least one is of this backend's type.
  virtual void copy(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes,
                    bool non_blocking) = 0;
  virtual void synchronize(int index) = 0;
};

// The backend for a device type. CUDA in a CPU-only build throws NotCompiledError.
DeviceBackend& backend(DeviceType type);
// The same device with its index made concrete (cuda -> cuda:<current>, cpu -> cpu), checked.
Device resolve_device(Device device);

// Filled by each backend's own file; registry.cpp calls them once.
DeviceBackend* make_cpu_backend();
DeviceBackend* make_cuda_backend();  // src/cuda/cuda_backend.cpp, or no_cuda.cpp

}  // namespace ember::detail
