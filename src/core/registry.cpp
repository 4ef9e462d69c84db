// The backend table: one DeviceBackend per DeviceType, created on first use and kept for the
// life of the process (leaked on purpose so guards and frees work during static destruction).
#include <array>

#include "core/backend.h"
#include "core/check.h"
#include "kernels/register.h"

namespace ember::detail {
namespace {

struct Registry {
  std::array<DeviceBackend*, kNumDeviceTypes> backends{};
  Registry() {
    backends[static_cast<int>(DeviceType::CPU)] = make_cpu_backend();
    backends[static_cast<int>(DeviceType::CUDA)] = make_cuda_backend();
    register_cpu_kernels();
    register_cuda_kernels();
  }
};

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

}  // namespace

DeviceBackend& backend(DeviceType type) { return *registry().backends[static_cast<int>(type)]; }

void ensure_registered() { (void)registry(); }

Device resolve_device(Device device) {
  if (device.is_cpu()) return Device::cpu();
  DeviceBackend& b = backend(device.type());
  Device d = device.has_index() ? device : Device(device.type(), b.current_device());
  b.check_device(d);
  return d;
}

}  // namespace ember::detail
