// ember::cuda: GPU queries that work in every build (no CUDA headers): availability, count,
// the current device and its guard, names, properties, free memory, the allocator's statistics
// and the sync debug mode. Streams and events are in ember/stream.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

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

// torch.cuda's sync debug mode: what happens when ember makes the host wait for a GPU without
// being asked to (a copy to or from a GPU with non_blocking=false, item() of a GPU tensor).
// 0 "default": nothing; 1 "warn": one line on stderr per kind of wait; 2 "error": ember::Error.
// Waits the caller asks for (synchronize(), Stream/Event::synchronize()) are never reported.
// A process-wide setting that needs no GPU; other values throw ValueError.
EMBER_API void set_sync_debug_mode(int mode);
EMBER_API void set_sync_debug_mode(std::string_view mode);
EMBER_API int get_sync_debug_mode() noexcept;

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
EMBER_API MemInfo mem_get_info(int index = -1);  // makes a CUDA context on the device
// torch.cuda.device_memory_used: bytes in use on the whole GPU (every process's, and what the
// driver reserves for itself), read through NVML (libnvidia-ml.so.1, installed with the NVIDIA
// driver) without making a CUDA context; ember::Error when NVML cannot be used or the GPU is
// partitioned into MIG instances.
EMBER_API int64_t device_memory_used(int index = -1);
// torch.cuda.can_device_access_peer: whether `device` can reach `peer`'s memory directly (NVLink
// or PCIe peer-to-peer); false for a device and itself. Copies between two such GPUs go directly
// (ember enables peer access on their first copy, as PyTorch); others are staged by CUDA.
EMBER_API bool can_device_access_peer(int device, int peer);

// The caching allocator, as torch.cuda's memory API. Freed tensors' memory stays reserved for
// reuse (and shows as used in nvidia-smi) until empty_cache(); PYTORCH_NO_CUDA_MEMORY_CACHING=1 or
// EMBER_NO_CUDA_MEMORY_CACHING=1 turns the cache off. `device` -1 means the current device.
// Without a usable GPU they answer as PyTorch does before CUDA is initialised (0, an empty map,
// no-ops), except memory_summary, which names a device and so throws like current_device().
EMBER_API int64_t memory_allocated(int device = -1);      // bytes held by tensors
EMBER_API int64_t max_memory_allocated(int device = -1);  // its peak since the last reset
EMBER_API int64_t memory_reserved(int device = -1);       // bytes held on the GPU, cache included
EMBER_API int64_t max_memory_reserved(int device = -1);
EMBER_API void reset_peak_memory_stats(int device = -1);         // every peak = current value
EMBER_API void reset_accumulated_memory_stats(int device = -1);  // every total and counter = 0
// Returns the cached memory that no tensor uses to the GPUs (never memory of live tensors).
EMBER_API void empty_cache();
// PyTorch's flat keys: "allocated_bytes.all.current", ..., "num_alloc_retries", "num_ooms", ...
EMBER_API std::map<std::string, int64_t> memory_stats(int device = -1);
// torch.cuda.memory_summary's table of those statistics.
EMBER_API std::string memory_summary(int device = -1, bool abbreviated = false);
// torch.cuda.host_memory_stats: the page-locked host memory of pin_memory() and non_blocking
// copies, cached for reuse like GPU memory: "allocations" and "allocated_bytes" count the blocks
// held (in use or cached), "active_requests" and "active_bytes" those in use or still used by a
// copy, each ".current", ".peak", ".allocated", ".freed"; then "num_host_alloc" and
// "num_host_free" (cudaHostAlloc and cudaFreeHost calls). Empty without a usable GPU.
EMBER_API std::map<std::string, int64_t> host_memory_stats();

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
