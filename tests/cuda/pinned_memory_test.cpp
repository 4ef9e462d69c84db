// Pinned memory and non_blocking copies: the errors and fallbacks of every build without a GPU,
// and on a GPU (skipped visibly without one) page-locked copies, truly asynchronous copies in both
// directions whose results are right when read at once.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/tensor_impl.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

// ---- every build

TEST(PinnedMemory, IsPinnedNeverThrows) {
  EXPECT_FALSE(Tensor().is_pinned());
  EXPECT_FALSE(ones({3}).is_pinned());
  EXPECT_FALSE(from_blob(std::vector<float>(4).data(), {4}).is_pinned());
}

TEST(PinnedMemory, WithoutGpuPinMemorySaysWhy) {
  if (cuda::is_available()) GTEST_SKIP() << "a GPU is usable; see the tests below";
  Tensor x = ones({3});
  if (!cuda::built_with_cuda()) {
    EXPECT_EQ(error_of<NotCompiledError>([&] { (void)x.pin_memory(); }),
              "[ember] built without CUDA support; reconfigure with -DEMBER_CUDA=ON (needs the "
              "CUDA toolkit) to use cuda devices, or use ember::try_gpu() to fall back to the "
              "CPU");
  } else {
    EXPECT_EQ(error_of<CudaError>([&] { (void)x.pin_memory(); }),
              "No CUDA GPUs are available: " + cuda::unavailable_reason() +
                  "; use ember::try_gpu() to fall back to the CPU");
  }
  EXPECT_FALSE(x.is_pinned());
  EXPECT_TRUE(cuda::host_memory_stats().empty());
}

TEST(PinnedMemory, NonBlockingToTheCpuOfACpuTensorIsTheTensor) {
  Tensor x = ones({3});
  EXPECT_TRUE(x.to("cpu", /*non_blocking=*/true).is_same(x));
  EXPECT_TRUE(x.cpu(/*non_blocking=*/true).is_same(x));
  Tensor y = x.to(kFloat64, /*non_blocking=*/true);  // a CPU copy: nothing to pin
  EXPECT_FALSE(y.is_pinned());
  expect_values<double>(y, {3}, {1., 1., 1.});
}

// ---- with a GPU

// A tensor of n x n elements, all equal to n * scale, on the GPU behind an n^3 matrix product, so
// that a copy queued next starts late and a read that did not wait for it would see other bytes.
// (No scalar operand: its copy to the GPU would make the host wait for the product.)
Tensor late_on_gpu(int64_t n, float scale) {
  const Device gpu("cuda");
  return full({n, n}, scale, gpu).matmul(ones({n, n}, gpu));
}

// How many elements of a float tensor on the host differ from `value`.
int64_t mismatches(const Tensor& host, float value) {
  int64_t bad = 0;
  for (float v : host.span<float>()) bad += v != value;
  return bad;
}

constexpr int64_t kN = 4096;  // 64 MiB of float32

TEST(CudaPinnedMemory, PinMemoryCopiesIntoPageLockedMemory) {
  EMBER_SKIP_IF_NO_CUDA();
  const std::map<std::string, int64_t> before = cuda::host_memory_stats();
  Tensor x = arange(12, TensorOptions(kFloat32)).view({3, 4});
  Tensor p = x.pin_memory();
  EXPECT_TRUE(p.is_pinned());
  EXPECT_FALSE(x.is_pinned());
  EXPECT_FALSE(p.is_alias_of(x));
  EXPECT_EQ(p.device(), Device::cpu());
  EXPECT_TRUE(equal(p, x));
  EXPECT_TRUE(p.pin_memory().is_same(p));      // pinned already: itself, as PyTorch
  EXPECT_TRUE(p.narrow(0, 1, 1).is_pinned());  // views share the pinned storage
  Tensor t = x.t().pin_memory();               // a non-contiguous source
  EXPECT_TRUE(t.is_pinned());
  EXPECT_TRUE(equal(t, x.t()));
  const std::map<std::string, int64_t> after = cuda::host_memory_stats();
  EXPECT_GE(after.at("active_requests.current"), before.at("active_requests.current") + 2);
  EXPECT_TRUE(empty({0}).pin_memory().is_pinned());
}

TEST(CudaPinnedMemory, PinMemoryOfAGpuTensorIsRefused) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor g = ones({2}, Device::cuda(0));
  EXPECT_EQ(error_of([&] { (void)g.pin_memory(); }),
            "[pin_memory] cannot pin a cuda:0 tensor: only dense CPU tensors can be pinned. It is "
            "in GPU memory already; pin_memory() is for CPU tensors that are then copied to a GPU "
            "with non_blocking=true");
  EXPECT_FALSE(g.is_pinned());
}

TEST(CudaPinnedMemory, NonBlockingCopyFromPinnedMemoryToTheGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  const Tensor host = arange(kN * kN, TensorOptions(kInt32));
  Tensor pinned = host.pin_memory();
  reset_transfer_stats();
  Tensor dev = pinned.to("cuda", /*non_blocking=*/true);
  EXPECT_EQ(transfer_stats().host_to_device_copies, 1);
  EXPECT_EQ(transfer_stats().host_syncs, 0);
  // Free the source while the copy may still read it: its block must not come back until the
  // copy is done, or the ones written here would reach the GPU.
  pinned = Tensor();
  Tensor reused = zeros({kN * kN}, kInt32).pin_memory();
  reused.fill_(1);
  EXPECT_TRUE(equal(dev.cpu(), host));
}

TEST(CudaPinnedMemory, NonBlockingResultIsPinnedAndRightWhenReadAtOnce) {
  EMBER_SKIP_IF_NO_CUDA();
  const float n = static_cast<float>(kN);
  reset_transfer_stats();
  Tensor h = late_on_gpu(kN, 1).to("cpu", /*non_blocking=*/true);
  EXPECT_TRUE(h.is_pinned());
  EXPECT_EQ(transfer_stats().device_to_host_copies, 1);
  EXPECT_EQ(mismatches(h, n), 0);             // span
  EXPECT_LE(transfer_stats().host_syncs, 1);  // the read waited, unless the copy had ended
  EXPECT_EQ(late_on_gpu(kN, 2).cpu(/*non_blocking=*/true)[kN - 1][kN - 1].item<float>(), 2 * n);
  const std::vector<float> v = late_on_gpu(kN, 3).to("cpu", true).to_vector<float>();
  EXPECT_EQ(v.front(), 3 * n);
  EXPECT_EQ(v.back(), 3 * n);
  EXPECT_EQ(late_on_gpu(kN, 4).to("cpu", true).sum().item<double>(), 4.0 * n * n * n);
  EXPECT_EQ(late_on_gpu(kN, 5).to("cpu", true)[0][0].str(), "tensor(20480.)");
  // A copy back to a GPU reads the host bytes, so it waits for them too.
  Tensor back = late_on_gpu(kN, 6).to("cpu", true).to("cuda", true);
  EXPECT_EQ(mismatches(back.cpu(), 6 * n), 0);
}

TEST(CudaPinnedMemory, NonBlockingCopyIntoPinnedAndPageableTensors) {
  EMBER_SKIP_IF_NO_CUDA();
  const float n = static_cast<float>(kN);
  Tensor pinned = empty({kN, kN}).pin_memory();
  pinned.copy_(late_on_gpu(kN, 1), /*non_blocking=*/true);
  EXPECT_EQ(mismatches(pinned, n), 0);
  // Into pageable memory CUDA returns once the bytes have arrived: nothing is left pending.
  Tensor pageable = empty({kN, kN});
  pageable.copy_(late_on_gpu(kN, 2), /*non_blocking=*/true);
  EXPECT_FALSE(detail::impl_of(pageable)->storage->pending_write.pending());
  EXPECT_EQ(mismatches(pageable, 2 * n), 0);
}

TEST(CudaPinnedMemory, ADroppedResultKeepsItsBlockUntilTheCopyEnds) {
  EMBER_SKIP_IF_NO_CUDA();
  (void)late_on_gpu(kN, 1).to("cpu", /*non_blocking=*/true);  // dropped before it arrives
  Tensor next = zeros({kN, kN}).pin_memory();  // must not get the block the copy still writes
  next.fill_(7);
  cuda::synchronize();
  EXPECT_EQ(mismatches(next, 7), 0);
}

TEST(CudaPinnedMemory, ReadingAfterSynchronizeIsNoHostSync) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor h = late_on_gpu(256, 1).to("cpu", /*non_blocking=*/true);
  cuda::synchronize();
  const int saved = cuda::get_sync_debug_mode();
  cuda::set_sync_debug_mode("error");
  reset_transfer_stats();
  EXPECT_NO_THROW(EXPECT_EQ(mismatches(h, 256), 0));
  EXPECT_EQ(transfer_stats().host_syncs, 0);
  cuda::set_sync_debug_mode(saved);
}

}  // namespace
}  // namespace ember
