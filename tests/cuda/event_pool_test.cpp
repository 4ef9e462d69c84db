// Plain CUDA events are pooled and recorded again (Note [CUDA event pool] in
// src/cuda/cuda_event.cpp): a wait queued on an event keeps waiting for the record it saw after
// the event is destroyed and its handle recorded elsewhere, and non-blocking copies to the host,
// each with such an event, arrive whole round after round. Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <vector>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

TEST(CudaEventPool, QueuedWaitOutlivesTheEventsReuse) {
  EMBER_SKIP_IF_NO_CUDA();
  const int64_t n = int64_t{64} << 20;
  const Stream producer = cuda::get_stream_from_pool(), consumer = cuda::get_stream_from_pool();
  Tensor doubled;
  {
    cuda::Event done;  // plain: from the pool, and back to it below
    {
      StreamGuard guard(producer);
      doubled = arange(n, TensorOptions(kInt32).device("cuda")) * 2;
      done.record();
    }
    consumer.wait_event(done);
  }
  cuda::Event reused;  // the handle just given back, most likely
  reused.record(cuda::get_stream_from_pool());
  Tensor tail;
  {
    StreamGuard guard(consumer);
    doubled.record_stream(consumer);
    tail = doubled.narrow(0, n - 3, 3).clone();
  }
  consumer.synchronize();
  const auto last = static_cast<int32_t>(n - 1);
  test::expect_values<int32_t>(tail, {3}, {2 * (last - 2), 2 * (last - 1), 2 * last});
}

TEST(CudaEventPool, NonBlockingCopiesToTheHostArriveRoundAfterRound) {
  EMBER_SKIP_IF_NO_CUDA();
  std::vector<Tensor> on_gpu;
  for (int i = 0; i < 64; ++i) on_gpu.push_back(full({4096}, i, Device("cuda")));
  for (int round = 0; round < 3; ++round) {
    std::vector<Tensor> on_host;
    for (const Tensor& g : on_gpu) on_host.push_back(g.to(Device::cpu(), /*non_blocking=*/true));
    for (size_t i = 0; i < on_host.size(); ++i) {
      EXPECT_TRUE(on_host[i].is_pinned());
      EXPECT_EQ(on_host[i].sum().item<double>(), 4096.0 * static_cast<double>(i))
          << "round " << round << ", tensor " << i;
    }
  }
}

}  // namespace
}  // namespace ember
