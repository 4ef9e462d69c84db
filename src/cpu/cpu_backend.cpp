// The CPU DeviceBackend: one device, the CPU allocator, memcpy for copies, nothing to wait for.
// Its one stream (id 0) runs work as it is queued, so it is always complete, and an event
// completes when recorded; it keeps the host clock's time then, so elapsed_time works on the CPU.
#include <chrono>
#include <cstring>
#include <memory>

#include "core/backend.h"
#include "core/check.h"
#include "cpu/cpu_allocator.h"

namespace ember::detail {
namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point& as_time(void* event) { return *static_cast<Clock::time_point*>(event); }

class CpuBackend final : public DeviceBackend {
 public:
  int device_count() const noexcept override { return 1; }
  int current_device() override { return -1; }
  void set_device(int) override {}
  void unchecked_set_device(int) noexcept override {}
  void check_device(Device) override {}
  Allocator& allocator(int) override { return cpu::cpu_allocator(); }
  // Copies within the host are synchronous memcpys, as fast from any memory.
  Allocator& host_allocator() override { return cpu::cpu_allocator(); }
  void synchronize(int) override {}

  Stream current_stream(int) override { return the_stream(); }
  Stream exchange_stream(const Stream&) noexcept override { return the_stream(); }
  Stream stream_from_pool(int, bool) override { return the_stream(); }
  bool query_stream(const Stream&) override { return true; }
  void synchronize_stream(const Stream&) override {}

  void* create_event(int, EventFlags) override { return new Clock::time_point(); }
  void destroy_event(void* event, int) noexcept override { delete &as_time(event); }
  void record_event(void* event, const Stream&) override { as_time(event) = Clock::now(); }
  void block_event(void*, const Stream&) override {}
  bool query_event(void*) override { return true; }
  void synchronize_event(void*) override {}
  double elapsed_ms(void* start, void* end, int) override {
    return std::chrono::duration<double, std::milli>(as_time(end) - as_time(start)).count();
  }

  void record_stream(void*, const Stream&) override {}

 private:
  static Stream the_stream() { return Stream::unchecked(Device::cpu(), 0); }

  std::unique_ptr<PendingWrite> copy_bytes(void* dst, Device, const void* src, Device,
                                           size_t nbytes, bool) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
    return nullptr;
  }
};

}  // namespace

DeviceBackend* make_cpu_backend() { return new CpuBackend(); }

}  // namespace ember::detail
