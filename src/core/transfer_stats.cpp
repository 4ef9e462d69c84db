// transfer_stats(): process-wide counters of the copies between devices, bumped by
// DeviceBackend::copy (bytes, copies) and note_host_sync (host waits).
#include "ember/transfer_stats.h"

#include <atomic>

#include "core/backend.h"
#include "core/sync_debug.h"

namespace ember {
namespace {

// Relaxed atomics: each counter is exact, a snapshot of all of them is not a single instant.
struct Counter {
  std::atomic<int64_t> bytes{0}, copies{0};
  void add(size_t nbytes) noexcept {
    bytes.fetch_add(static_cast<int64_t>(nbytes), std::memory_order_relaxed);
    copies.fetch_add(1, std::memory_order_relaxed);
  }
  void reset() noexcept {
    bytes.store(0, std::memory_order_relaxed);
    copies.store(0, std::memory_order_relaxed);
  }
};

struct Counters {
  Counter host_to_device, device_to_host, device_to_device;
  std::atomic<int64_t> host_syncs{0};
};

Counters& counters() noexcept {
  static Counters c;
  return c;
}

}  // namespace

namespace detail {

void count_transfer(Device src_device, Device dst_device, size_t nbytes) noexcept {
  if (src_device == dst_device) return;
  Counters& c = counters();
  Counter& kind = src_device.is_cpu()   ? c.host_to_device
                  : dst_device.is_cpu() ? c.device_to_host
                                        : c.device_to_device;
  kind.add(nbytes);
}

void count_host_sync() noexcept { counters().host_syncs.fetch_add(1, std::memory_order_relaxed); }

}  // namespace detail

TransferStats transfer_stats() {
  const Counters& c = counters();
  TransferStats s;
  s.host_to_device_bytes = c.host_to_device.bytes.load(std::memory_order_relaxed);
  s.host_to_device_copies = c.host_to_device.copies.load(std::memory_order_relaxed);
  s.device_to_host_bytes = c.device_to_host.bytes.load(std::memory_order_relaxed);
  s.device_to_host_copies = c.device_to_host.copies.load(std::memory_order_relaxed);
  s.device_to_device_bytes = c.device_to_device.bytes.load(std::memory_order_relaxed);
  s.device_to_device_copies = c.device_to_device.copies.load(std::memory_order_relaxed);
  s.host_syncs = c.host_syncs.load(std::memory_order_relaxed);
  return s;
}

void reset_transfer_stats() {
  Counters& c = counters();
  c.host_to_device.reset();
  c.device_to_host.reset();
  c.device_to_device.reset();
  c.host_syncs.store(0, std::memory_order_relaxed);
}

}  // namespace ember
