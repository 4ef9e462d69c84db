// What surrounds every kernel launch and asynchronous copy: the device and stream it goes to, the
// grid size it may take, and after it, launch errors named after the op and
// CUDA_LAUNCH_BLOCKING=1's wait for the stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "ember/device.h"
#include "ember/tensor.h"
#include "kernels/dtype_dispatch.h"

namespace ember::cuda::impl {

// The current stream of `device`, on which ember queues its work, with `device` made the
// runtime's current device for the scope.
struct DeviceStream {
  explicit DeviceStream(Device device)
      : scope(device.index()), stream(native_stream(current_stream_id(device.index()))) {}
  RuntimeDeviceScope scope;
  cudaStream_t stream;
};

// gridDim.x for `blocks` blocks; past its limit (far beyond any tensor that fits in memory, but
// for very short lines) a launch of `op` throws instead.
unsigned grid_size(int64_t blocks, const char* op);

// gridDim.x for `threads` threads in blocks of `per_block`, checked as grid_size.
inline unsigned blocks_for(int64_t threads, int per_block, const char* op) {
  return grid_size((threads + per_block - 1) / per_block, op);
}

// Call right after queueing `op`'s work on `stream` (a kernel launch, cudaMemcpyAsync, ...). A
// launch error (bad configuration, no kernel image for this GPU) becomes a CudaError naming `op`.
// Under CUDA_LAUNCH_BLOCKING=1 the host then waits for the stream, so an error in the work itself
// is also reported here, naming `op`, instead of at some later unrelated CUDA call.
void after_launch(const char* op, cudaStream_t stream);

// Tensor::data_ptr<T>() is for host memory only: device pointers come from the untyped one.
template <class T>
T* device_ptr(const Tensor& t) {
  return static_cast<T*>(t.data_ptr());
}

// One thread per element of `out`, in blocks of kThreads, on the current stream of its device:
// calls launch(dtype tag, blocks, stream, numel) for out's floating dtype, then checks the launch.
template <int kThreads, class Launch>
void launch_per_element(const char* op, const Tensor& out, const Launch& launch) {
  const int64_t numel = out.numel();
  if (numel == 0) return;
  const DeviceStream on(out.device());
  const unsigned blocks = blocks_for(numel, kThreads, op);
  kernels::dispatch_floating(out.scalar_type(), op,
                             [&](auto tag) { launch(tag, blocks, on.stream, numel); });
  after_launch(op, on.stream);
}

}  // namespace ember::cuda::impl
