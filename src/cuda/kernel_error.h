// Errors found by GPU kernels (out-of-range indices), reported to the host at its next wait.
//
// Note [Index errors found by GPU kernels]
// gather, scatter, index_select, embedding, nll_loss and one_hot must refuse an index outside its
// bounds, and only the kernel sees the indices. Checking them on the host would make every such
// call wait for the GPU (three waits per training step of a classifier, each one reported by
// cuda::set_sync_debug_mode); PyTorch instead stops the kernel with a device-side assert, which
// surfaces at some later call as "device-side assert triggered" and leaves the CUDA context
// unusable for the rest of the process. ember does neither. The first kernel thread that meets a
// bad index records it (the op's bounds and the value) in a small page-locked record that the
// host can read without a copy; the kernel writes nothing for that element and goes on. Every
// host wait ember makes (a stream's, an event's or a device's synchronize, a blocking copy to or
// from the host, a host access to the result of a non-blocking copy, and every launch under
// CUDA_LAUNCH_BLOCKING=1) then looks at the record and raises the op's usual error, saying that
// a kernel found it. The device stays usable. So a bad index still throws the CPU's exception,
// at the first point where the program looks at GPU results, or at the call itself with
// CUDA_LAUNCH_BLOCKING=1.
//
// One record per device. A launch carries the device's current generation; a thread claims the
// record by raising the device-side word `claimed` to that generation with atomicMax, so one
// thread per generation writes it, the generation last. The host raises a record once: it clears
// it and moves the device to the next generation, so later launches can report again while the
// rest of the failed generation's reports are dropped as the same bout of errors.
#pragma once

#include <atomic>
#include <cstdint>

#include "ember/macros.h"
#include "kernels/index_bounds.h"

namespace ember::cuda {

// The device's record, in mapped page-locked memory. `generation` is nonzero while a report is
// waiting to be raised.
struct KernelErrorRecord {
  uint64_t generation;
  const char* op;
  uintptr_t raise;  // the bounds' RaiseOutOfBounds, carried as an integer through the kernel
  int64_t dim;
  int64_t size;
  int64_t value;
};

// What a kernel that checks indices takes as an argument.
struct KernelErrorSlot {
  unsigned long long* claimed;  // device memory
  KernelErrorRecord* record;    // the device's view of the record
  unsigned long long generation;
  const char* op;
  uintptr_t raise;
  int64_t dim;
  int64_t size;

  // Called by a thread that met `value` outside [0, size). The host build is the emulated GPU
  // loop's (tests/cuda/).
  EMBER_HOST_DEVICE void report(int64_t value) const {
#ifdef __CUDA_ARCH__
    if (atomicMax(claimed, generation) >= generation) return;
#else
    std::atomic_ref<unsigned long long> word(*claimed);
    unsigned long long seen = word.load();
    do {
      if (seen >= generation) return;
    } while (!word.compare_exchange_weak(seen, generation));
#endif
    record->op = op;
    record->raise = raise;
    record->dim = dim;
    record->size = size;
    record->value = value;
#ifdef __CUDA_ARCH__
    __threadfence_system();  // the fields reach the host before the generation says they are there
    *static_cast<volatile uint64_t*>(&record->generation) = generation;
#else
    std::atomic_ref<uint64_t>(record->generation).store(generation, std::memory_order_release);
#endif
  }
};

inline KernelErrorSlot make_kernel_error_slot(unsigned long long* claimed,
                                              KernelErrorRecord* record,
                                              unsigned long long generation,
                                              const kernels::IndexBounds& bounds) {
  return {claimed,    record,     generation, bounds.op, reinterpret_cast<uintptr_t>(bounds.raise),
          bounds.dim, bounds.size};
}

// The host half: if `record` holds a report, clears it and returns true with the report's bounds
// and value.
inline bool take_kernel_error(KernelErrorRecord& record, kernels::IndexBounds& bounds,
                              int64_t& value) {
  std::atomic_ref<uint64_t> generation(record.generation);
  if (generation.load(std::memory_order_acquire) == 0) return false;
  bounds = {record.op, record.dim, record.size,
            reinterpret_cast<kernels::RaiseOutOfBounds>(record.raise)};
  value = record.value;
  generation.store(0, std::memory_order_relaxed);
  return true;
}

namespace impl {

// The slot for a launch on `device` (its record is made on first use).
KernelErrorSlot kernel_error_slot(int device, const kernels::IndexBounds& bounds);

// The device-side `claimed` word of `device`, the runtime's current device, zero until a kernel
// claims the record (kernel_error_word.cu).
unsigned long long* kernel_error_word(int device);

// Called after every host wait: raises the first waiting report of any device, if there is one.
void raise_kernel_errors();

}  // namespace impl

}  // namespace ember::cuda
