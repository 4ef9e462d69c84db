// Note [Backward streams]: each node's backward runs on the stream its forward op ran on, and
// the caller's stream waits for the leaves' gradients when backward() returns.
#include <gtest/gtest.h>

#include "ember/autograd.h"
#include "ember/cuda.h"
#include "ember/ember.h"
#include "test_util.h"

namespace ember {
namespace {

TEST(BackwardStreams, CpuNodesCarryNoStream) {
  Tensor x = ones({3}).requires_grad_();
  Tensor y = (x * 2).sum();
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_FALSE(y.grad_fn()->output_meta_[0].stream.has_value());
  y.backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (std::vector<float>{2, 2, 2}));
}

TEST(BackwardStreams, NodesRecordTheForwardStream) {
  EMBER_SKIP_IF_NO_CUDA();
  const Stream side = cuda::get_stream_from_pool();
  Tensor x = ones({4}, Device("cuda")).requires_grad_();
  Tensor y;
  {
    StreamGuard on_side(side);
    y = (x * 3).sum();
  }
  Tensor z = y * 2;  // on the default stream
  ASSERT_TRUE(y.grad_fn()->output_meta_[0].stream.has_value());
  EXPECT_EQ(*y.grad_fn()->output_meta_[0].stream, side);
  EXPECT_EQ(*z.grad_fn()->output_meta_[0].stream, cuda::default_stream());
}

// A forward pass on a side stream, backward() and the reads on the default stream: without the
// engine's waits the gradient reads would race the side stream's long backward kernels.
TEST(BackwardStreams, GradientsFromASideStreamAreReadyOnTheCallersStream) {
  EMBER_SKIP_IF_NO_CUDA();
  const Stream side = cuda::get_stream_from_pool();
  const int64_t n = 2048;
  Tensor a = full({n, n}, 0.5, Device("cuda")).requires_grad_();
  Tensor b = full({n, n}, 0.25, Device("cuda")).requires_grad_();
  Tensor loss;
  {
    StreamGuard on_side(side);
    Tensor h = mm(a, b);
    for (int i = 0; i < 8; ++i) h = mm(h, b) / (0.25 * static_cast<double>(n));
    loss = h.sum();
  }
  loss.backward();  // queued on the side stream's nodes, awaited by the default stream
  Tensor grad_sum = a.grad().sum();  // default stream
  // The gradient flowing back through each scaled product stays all ones, so
  // d loss / d a = ones @ b^T: 0.25 n in each of the n * n elements.
  EXPECT_NEAR(grad_sum.item<double>(), static_cast<double>(n) * n * 0.25 * n, 1e-3 * n * n * n);
}

}  // namespace
}  // namespace ember
