// Each device's kernel-error record and its raising after host waits (Note [Index errors found
// by GPU kernels] in kernel_error.h).
#include "cuda/kernel_error.h"

#include <array>
#include <functional>
#include <mutex>
#include <string>

#include "core/check.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"

namespace ember::cuda::impl {
namespace {

struct DeviceErrors {
  std::once_flag made;
  std::mutex raising;
  std::atomic<KernelErrorRecord*> host{nullptr};  // the record, as the host reads it
  KernelErrorRecord* device = nullptr;            // the same bytes, as kernels write them
  unsigned long long* claimed = nullptr;
  std::atomic<unsigned long long> generation{1};
};

std::array<DeviceErrors, kMaxDevices> g_devices;
// One past the highest device with a record, so that a wait looks at those only.
std::atomic<int> g_limit{0};

// Made on the device's first index-checking launch and kept for the process (freeing them during
// exit could meet a runtime that is already gone). Nothing here waits for the GPU.
void make_record(int device, DeviceErrors& errors) {
  RuntimeDeviceScope scope(device);
  void* host = nullptr;
  EMBER_CUDA_CHECK(cudaHostAlloc(&host, sizeof(KernelErrorRecord), cudaHostAllocMapped),
                   "while making the kernel-error record of cuda:", device);
  *static_cast<KernelErrorRecord*>(host) = {};
  void* on_device = nullptr;
  EMBER_CUDA_CHECK(cudaHostGetDevicePointer(&on_device, host, 0),
                   "while mapping the kernel-error record of cuda:", device);
  errors.device = static_cast<KernelErrorRecord*>(on_device);
  errors.claimed = kernel_error_word(device);  // Note [A kernel-error word without a wait]
  errors.host.store(static_cast<KernelErrorRecord*>(host));
  int limit = g_limit.load();
  while (limit <= device && !g_limit.compare_exchange_weak(limit, device + 1)) {
  }
}

}  // namespace

KernelErrorSlot kernel_error_slot(int device, const kernels::IndexBounds& bounds) {
  DeviceErrors& errors = g_devices[static_cast<size_t>(device)];
  std::call_once(errors.made, make_record, device, std::ref(errors));
  return make_kernel_error_slot(errors.claimed, errors.device, errors.generation.load(), bounds);
}

void raise_kernel_errors() {
  const int limit = g_limit.load(std::memory_order_acquire);
  for (int device = 0; device < limit; ++device) {
    DeviceErrors& errors = g_devices[static_cast<size_t>(device)];
    KernelErrorRecord* record = errors.host.load(std::memory_order_acquire);
    if (record == nullptr ||
        std::atomic_ref<uint64_t>(record->generation).load(std::memory_order_acquire) == 0)
      continue;
    kernels::IndexBounds bounds{};
    int64_t value = 0;
    {
      std::lock_guard<std::mutex> lock(errors.raising);
      if (!take_kernel_error(*record, bounds, value)) continue;  // another thread raised it
      errors.generation.fetch_add(1);
    }
    const std::string note =
        detail::launch_blocking()
            ? ::ember::str(" (found by the kernel on cuda:", device, ")")
            : ::ember::str(
                  " (found by a kernel on cuda:", device,
                  " and reported at the next wait for the GPU; run with CUDA_LAUNCH_BLOCKING=1 to "
                  "have the call that launched it raise this)");
    kernels::raise_out_of_bounds(bounds, value, note.c_str());
  }
}

}  // namespace ember::cuda::impl
