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
  EXPECT_FALSE(y.grad_fn()->stream().has_value());
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
  ASSERT_TRUE(y.grad_fn()->stream().has_value());
  EXPECT_EQ(*y.grad_fn()->stream(), side);
  EXPECT_EQ(*z.grad_fn()->stream(), cuda::default_stream());
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
    side.wait_stream(cuda::default_stream());  // a and b were filled there
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

// One tensor used on two streams: its gradients arrive from both and are summed on the stream
// of the node they flow into, after both producers (each slowed by a chain of products).
TEST(BackwardStreams, GradientsFromTwoStreamsAreSummedAfterBoth) {
  EMBER_SKIP_IF_NO_CUDA();
  const Stream side = cuda::get_stream_from_pool();
  const int64_t n = 1024;
  Tensor x = full({n, n}, 0.5, Device("cuda")).requires_grad_();
  Tensor w = full({n, n}, 1.0 / static_cast<double>(n), Device("cuda"));
  Tensor h = x * 1.0;  // its backward runs on the default stream, where both gradients meet
  Tensor on_side;
  {
    StreamGuard on(side);
    side.wait_stream(cuda::default_stream());
    on_side = h * 2;
    for (int i = 0; i < 8; ++i) on_side = mm(on_side, w);
  }
  cuda::current_stream().wait_stream(side);  // on_side is read here
  Tensor on_default = h * 3;
  for (int i = 0; i < 8; ++i) on_default = mm(on_default, w);
  // The products with w (all 1/n) keep the row sums, so d loss / d h = (2 + 3) everywhere.
  (on_side.sum() + on_default.sum()).backward();
  EXPECT_NEAR(x.grad().min().item<double>(), 5.0, 1e-3);
  EXPECT_NEAR(x.grad().max().item<double>(), 5.0, 1e-3);
}

}  // namespace
}  // namespace ember
