// What follows every kernel launch and asynchronous copy: launch errors named after the op, and
// CUDA_LAUNCH_BLOCKING=1's wait for the stream.
#pragma once

#include <cuda_runtime_api.h>

namespace ember::cuda::impl {

// Call right after queueing `op`'s work on `stream` (a kernel launch, cudaMemcpyAsync, ...). A
// launch error (bad configuration, no kernel image for this GPU) becomes a CudaError naming `op`.
// Under CUDA_LAUNCH_BLOCKING=1 the host then waits for the stream, so an error in the work itself
// is also reported here, naming `op`, instead of at some later unrelated CUDA call.
void after_launch(const char* op, cudaStream_t stream);

}  // namespace ember::cuda::impl
