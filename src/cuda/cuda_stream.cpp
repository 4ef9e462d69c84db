// CUDA streams: each thread's current stream per device, and PyTorch's pool of streams.
//
// Note [CUDA stream pool]
// As in c10/cuda/CUDAStream.cpp: a device's pool is made on its first request (so an unused
// device gets no context), with 32 streams of the lowest priority and 32 of the highest, handed
// out round-robin and never destroyed; a stream is cheap to get and a 33rd request shares the
// first one's queue. Pool streams are cudaStreamNonBlocking: they do not wait for the legacy
// default stream (id 0, every thread's initial current stream), and it does not wait for them.
#include "cuda/cuda_stream.h"

#include <array>
#include <atomic>
#include <functional>
#include <mutex>

#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/kernel_error.h"
#include "ember/cuda.h"

namespace ember::cuda::impl {
namespace {

constexpr size_t kStreamsPerPool = 32;

struct StreamPool {
  std::array<cudaStream_t, kStreamsPerPool> streams{};
  std::atomic<uint32_t> next{0};

  cudaStream_t take() {
    return streams[next.fetch_add(1, std::memory_order_relaxed) % kStreamsPerPool];
  }
};

struct DevicePools {
  std::once_flag created;
  StreamPool low, high;  // priority
};

// Leaked on purpose, with their streams: work may be queued on them until exit.
DevicePools& pools_of(int index) {
  static auto* pools = new DevicePools[static_cast<size_t>(cuda::device_count())];
  return pools[index];
}

void create_pools(int index, DevicePools& pools) {
  RuntimeDeviceScope scope(index);
  int lowest = 0, highest = 0;
  EMBER_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest), "on cuda:", index);
  for (size_t i = 0; i < kStreamsPerPool; ++i) {
    EMBER_CUDA_CHECK(
        cudaStreamCreateWithPriority(&pools.low.streams[i], cudaStreamNonBlocking, lowest),
        "while creating the stream pool of cuda:", index);
    EMBER_CUDA_CHECK(
        cudaStreamCreateWithPriority(&pools.high.streams[i], cudaStreamNonBlocking, highest),
        "while creating the stream pool of cuda:", index);
  }
}

// The id of this thread's current stream per device; zero-initialised: the default streams.
thread_local std::array<uint64_t, kMaxDevices> tl_current{};

}  // namespace

uint64_t current_stream_id(int index) noexcept { return tl_current[static_cast<size_t>(index)]; }

Stream current_stream(int index) {
  return Stream::unchecked(Device::cuda(index), current_stream_id(index));
}

Stream exchange_stream(const Stream& stream) noexcept {
  const int index = stream.device().index();
  uint64_t& current = tl_current[static_cast<size_t>(index)];
  const uint64_t previous = current;
  current = stream.id();
  return Stream::unchecked(stream.device(), previous);
}

Stream stream_from_pool(int index, bool high_priority) {
  DevicePools& pools = pools_of(index);
  std::call_once(pools.created, create_pools, index, std::ref(pools));
  const cudaStream_t stream = (high_priority ? pools.high : pools.low).take();
  return Stream::unchecked(Device::cuda(index), stream_id(stream));
}

// The legacy default stream (id 0) is the current device's, hence the scope.
bool query_stream(const Stream& stream) {
  RuntimeDeviceScope scope(stream.device().index());
  return EMBER_CUDA_QUERY(cudaStreamQuery(native_stream(stream)), "while querying ", stream);
}

void synchronize_stream(const Stream& stream) {
  RuntimeDeviceScope scope(stream.device().index());
  EMBER_CUDA_CHECK(cudaStreamSynchronize(native_stream(stream)), "while synchronizing ", stream);
  raise_kernel_errors();
}

}  // namespace ember::cuda::impl
