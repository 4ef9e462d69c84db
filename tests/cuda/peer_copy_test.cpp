// Copies between two GPUs, both ways and twice, so that peer access is enabled by the first copy
// of each ordered pair and the second finds it done (Note [Peer access] in
// src/cuda/cuda_backend.cpp). Skips visibly with fewer than two GPUs.
#include <gtest/gtest.h>

#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

TEST(CudaPeerCopy, BothWaysTwice) {
  EMBER_SKIP_IF_NO_CUDA();
  if (cuda::device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  for (int round = 0; round < 2; ++round) {
    const Tensor on0 = arange(5, TensorOptions(kFloat32).device("cuda:0")) + round;
    const Tensor on1 = on0.to(Device::cuda(1));
    const Tensor back = (on1 * 2).to(Device::cuda(0));
    EXPECT_EQ(on1.device(), Device::cuda(1));
    const float r = static_cast<float>(round);
    test::expect_values<float>(back.cpu(), {5},
                               {2 * r, 2 * (1 + r), 2 * (2 + r), 2 * (3 + r), 2 * (4 + r)});
  }
}

}  // namespace
}  // namespace ember
