// Reporting the host waits ember makes on the caller's behalf: cuda::set_sync_debug_mode's
// mechanism and the host_syncs count of transfer_stats().
#pragma once

#include <string>

namespace ember::detail {

// Called by a backend just before it makes the host wait for a device without being asked to;
// `what` says why ("a blocking copy from cuda:0 to cpu") and is what "warn" reports once. Mode
// "error" throws here, before anything waits; otherwise the wait is counted.
void note_host_sync(const char* op, const std::string& what);

// Bumps transfer_stats().host_syncs (transfer_stats.cpp).
void count_host_sync() noexcept;

}  // namespace ember::detail
