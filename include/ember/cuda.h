// ember::cuda: GPU queries that work in every build (no CUDA headers): availability, count,
// the current device and its guard, names, properties and free memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ember/device.h"
#include "ember/macros.h"

namespace ember::cuda {

// Both never throw: false / 0 when ember was built without CUDA, no driver or no GPU.
EMBER_API bool is_available() noexcept;
EMBER_API int device_count() noexcept;
// Empty when a GPU is usable, else why not ("ember was built without CUDA", ...).
EMBER_API std::string unavailable_reason();
EMBER_API bool built_with_cuda() noexcept;

EMBER_API int current_device();
EMBER_API void set_device(int index);
EMBER_API void synchronize(int index = -1);

struct DeviceProperties {
  std::string name;
  size_t total_memory = 0;  // bytes
  int major = 0, minor = 0;
  int multi_processor_count = 0;
  std::string pci_bus_id;  // "0000:01:00.0"
};
EMBER_API std::string get_device_name(int index = -1);
EMBER_API DeviceProperties get_device_properties(int index = -1);
struct MemInfo {
  size_t free = 0, total = 0;  // bytes
};
EMBER_API MemInfo mem_get_info(int index = -1);

// Makes `index` the current CUDA device of this thread for its scope, then restores the old one.
// A negative index (or a CPU device) does nothing, as torch.cuda.device(None).
class EMBER_API DeviceGuard {
 public:
  explicit DeviceGuard(int index);
  explicit DeviceGuard(Device device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  [[maybe_unused]] int previous_ = -1;  // unused in a CPU-only build
};

}  // namespace ember::cuda
