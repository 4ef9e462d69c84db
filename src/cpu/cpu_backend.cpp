// The CPU DeviceBackend: one device, the CPU allocator, memcpy for copies, nothing to wait for.
#include <cstring>

#include "core/backend.h"
#include "core/check.h"
#include "cpu/cpu_allocator.h"

namespace ember::detail {
namespace {

class CpuBackend final : public DeviceBackend {
 public:
  int device_count() const noexcept override { return 1; }
  int current_device() override { return -1; }
  void set_device(int) override {}
  void unchecked_set_device(int) noexcept override {}
  void check_device(Device) override {}
  Allocator& allocator(int) override { return cpu::cpu_allocator(); }
  void copy(void* dst, Device, const void* src, Device, size_t nbytes, bool) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
  void synchronize(int) override {}
};

}  // namespace

DeviceBackend* make_cpu_backend() { return new CpuBackend(); }

}  // namespace ember::detail
