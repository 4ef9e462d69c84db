// Transfer statistics: how many bytes and copies crossed between the host and the GPUs, and how
// often a copy made the host wait for a GPU; for spotting stray .cpu() / item() calls in a loop.
#pragma once

#include <cstdint>

#include "ember/macros.h"

namespace ember {

// Counted at the one entry every copy between two devices goes through, process-wide, since
// start or the last reset. Copies within one device (clone, contiguous, CPU to CPU) are not
// transfers and are not counted.
struct TransferStats {
  int64_t host_to_device_bytes = 0;
  int64_t host_to_device_copies = 0;
  int64_t device_to_host_bytes = 0;
  int64_t device_to_host_copies = 0;
  int64_t device_to_device_bytes = 0;  // between two GPUs
  int64_t device_to_device_copies = 0;
  // Copies that made the host wait for the GPU's stream (non_blocking=false to or from a GPU,
  // item() of a GPU tensor): what cuda::set_sync_debug_mode reports.
  int64_t host_syncs = 0;
};

EMBER_API TransferStats transfer_stats();
EMBER_API void reset_transfer_stats();

}  // namespace ember
