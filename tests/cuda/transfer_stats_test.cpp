// transfer_stats() and cuda::set_sync_debug_mode: exact counts and the mode's parsing in every
// build (CPU copies are not transfers and never wait for a GPU), and the counts, warnings and
// errors of real transfers on a GPU (skipped visibly without one).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ember/nn.h"
#include "ember/warning.h"
#include "test_util.h"

namespace ember {
namespace {

using test::error_of;

// Restores the process-wide mode whatever a test does to it.
class SyncDebugModeGuard {
 public:
  SyncDebugModeGuard() : saved_(cuda::get_sync_debug_mode()) {}
  ~SyncDebugModeGuard() { cuda::set_sync_debug_mode(saved_); }
  SyncDebugModeGuard(const SyncDebugModeGuard&) = delete;
  SyncDebugModeGuard& operator=(const SyncDebugModeGuard&) = delete;

 private:
  int saved_;
};

void expect_stats(const TransferStats& got, const TransferStats& want) {
  EXPECT_EQ(got.host_to_device_bytes, want.host_to_device_bytes);
  EXPECT_EQ(got.host_to_device_copies, want.host_to_device_copies);
  EXPECT_EQ(got.device_to_host_bytes, want.device_to_host_bytes);
  EXPECT_EQ(got.device_to_host_copies, want.device_to_host_copies);
  EXPECT_EQ(got.device_to_device_bytes, want.device_to_device_bytes);
  EXPECT_EQ(got.device_to_device_copies, want.device_to_device_copies);
  EXPECT_EQ(got.host_syncs, want.host_syncs);
}

// ---- every build

TEST(SyncDebugMode, TakesPyTorchsNamesAndNumbers) {
  SyncDebugModeGuard restore;
  cuda::set_sync_debug_mode("default");
  EXPECT_EQ(cuda::get_sync_debug_mode(), 0);
  cuda::set_sync_debug_mode("warn");
  EXPECT_EQ(cuda::get_sync_debug_mode(), 1);
  cuda::set_sync_debug_mode("error");
  EXPECT_EQ(cuda::get_sync_debug_mode(), 2);
  cuda::set_sync_debug_mode(0);
  EXPECT_EQ(cuda::get_sync_debug_mode(), 0);
  cuda::set_sync_debug_mode(1);
  EXPECT_EQ(cuda::get_sync_debug_mode(), 1);
  cuda::set_sync_debug_mode(std::string("error"));
  EXPECT_EQ(cuda::get_sync_debug_mode(), 2);
}

TEST(SyncDebugMode, RejectsOtherValuesAndKeepsTheMode) {
  SyncDebugModeGuard restore;
  cuda::set_sync_debug_mode("warn");
  EXPECT_EQ(error_of<ValueError>([] { cuda::set_sync_debug_mode("loud"); }),
            "[set_sync_debug_mode] invalid value of debug_mode, expected one of `default`, `warn`, "
            "`error`, got 'loud'");
  EXPECT_NE(error_of<ValueError>([] { cuda::set_sync_debug_mode("WARN"); }), "");
  EXPECT_NE(error_of<ValueError>([] { cuda::set_sync_debug_mode(""); }), "");
  EXPECT_EQ(error_of<ValueError>([] { cuda::set_sync_debug_mode(3); }),
            "[set_sync_debug_mode] invalid value of debug_mode, expected one of 0,1,2, got 3");
  EXPECT_NE(error_of<ValueError>([] { cuda::set_sync_debug_mode(-1); }), "");
  EXPECT_EQ(cuda::get_sync_debug_mode(), 1);
}

TEST(TransferStats, ResetGivesZeros) {
  reset_transfer_stats();
  expect_stats(transfer_stats(), TransferStats{});
}

TEST(TransferStats, CpuCopiesAreNotTransfersAndNeverSync) {
  SyncDebugModeGuard restore;
  cuda::set_sync_debug_mode("error");  // nothing here may wait for a GPU
  reset_transfer_stats();
  Tensor x = arange(12, TensorOptions(kFloat32)).reshape({3, 4});
  Tensor y = empty({4, 3});
  y.copy_(x.t());
  (void)x.clone();
  (void)x.t().contiguous();
  (void)x.to(kFloat64);
  (void)x.to("cpu", /*non_blocking=*/false, /*copy=*/true);
  (void)x.cpu();
  EXPECT_EQ(x.sum().item<float>(), 66.f);
  EXPECT_EQ(y.to_vector<float>()[1], 4.f);
  expect_stats(transfer_stats(), TransferStats{});
}

TEST(TransferStats, FailedTransfersAreNotCounted) {
  if (cuda::is_available()) GTEST_SKIP() << "a GPU is usable: the transfer would succeed";
  reset_transfer_stats();
  Tensor x = ones({4});
  EXPECT_THROW((void)x.to("cuda"), Error);
  EXPECT_THROW((void)x.cuda(0, /*non_blocking=*/true), Error);
  expect_stats(transfer_stats(), TransferStats{});
}

// ---- with a GPU

TEST(CudaTransferStats, CountsBytesCopiesAndHostSyncs) {
  EMBER_SKIP_IF_NO_CUDA();
  reset_transfer_stats();
  Tensor host = ones({1000});  // 4000 bytes
  Tensor dev = host.to("cuda");
  TransferStats want;
  want.host_to_device_bytes = 4000;
  want.host_to_device_copies = 1;
  want.host_syncs = 1;  // non_blocking=false waits for the copy
  expect_stats(transfer_stats(), want);
  (void)host.cuda(-1, /*non_blocking=*/true);
  want.host_to_device_bytes += 4000;
  want.host_to_device_copies += 1;
  expect_stats(transfer_stats(), want);
  EXPECT_EQ(dev.cpu().to_vector<float>()[999], 1.f);
  EXPECT_EQ(dev.select(0, 3).item<float>(), 1.f);  // item() copies 4 bytes and waits
  want.device_to_host_bytes = 4004;
  want.device_to_host_copies = 2;
  want.host_syncs += 2;
  expect_stats(transfer_stats(), want);
  (void)dev.to("cuda");  // the same device: no copy at all
  expect_stats(transfer_stats(), want);
  if (cuda::device_count() >= 2) {
    Tensor other = dev.to(Device::cuda(1 - dev.get_device() % 2));  // the host does not wait
    want.device_to_device_bytes = 4000;
    want.device_to_device_copies = 1;
    expect_stats(transfer_stats(), want);
    EXPECT_EQ(other.cpu().to_vector<float>()[0], 1.f);
  }
  reset_transfer_stats();
  expect_stats(transfer_stats(), TransferStats{});
}

// A Python-style scalar (x * 2.5, where(c, x, 0.0)) or a 0-dim CPU tensor in a GPU op reaches
// the GPU through a fill kernel, not a copy from pageable memory that would wait for the GPU.
TEST(CudaTransferStats, ScalarsJoinGpuOpsWithoutACopy) {
  EMBER_SKIP_IF_NO_CUDA();
  const Tensor x = tensor({-1.f, 2.f, 3.f}).cuda(0);
  const Tensor cpu_scalar = tensor(4.0);
  SyncDebugModeGuard restore;
  cuda::set_sync_debug_mode("error");
  reset_transfer_stats();
  Tensor scaled, kept, shifted, masked;
  EXPECT_NO_THROW({
    scaled = x * 2.5;
    kept = where(x > 0, x, 0.0);
    shifted = x + cpu_scalar;
    masked = x.masked_fill(x < 0, 7);
  });
  expect_stats(transfer_stats(), TransferStats{});
  cuda::set_sync_debug_mode("default");
  test::expect_values<float>(scaled.cpu(), {3}, {-2.5f, 5.f, 7.5f});
  test::expect_values<float>(kept.cpu(), {3}, {0.f, 2.f, 3.f});
  test::expect_values<float>(shifted.cpu(), {3}, {3.f, 6.f, 7.f});
  test::expect_values<float>(masked.cpu(), {3}, {7.f, 2.f, 3.f});
  EXPECT_EQ(shifted.dtype(), kFloat32);  // a 0-dim tensor does not promote a dimensioned one
}

TEST(CudaSyncDebugMode, ErrorModeRefusesBlockingCopiesOnly) {
  EMBER_SKIP_IF_NO_CUDA();
  SyncDebugModeGuard restore;
  const Tensor host = tensor({1.f, 2.f});
  const Tensor dev = host.cuda(0);
  const std::string device = "cuda:0";
  cuda::set_sync_debug_mode("error");
  reset_transfer_stats();
  EXPECT_EQ(error_of([&] { (void)host.to(Device::cuda(0)); }),
            "[copy_] called a synchronizing CUDA operation: a blocking copy from cpu to " + device +
                " (an error because cuda::set_sync_debug_mode(\"error\") is on)");
  std::string d2h = error_of([&] { (void)dev.cpu(); });
  EXPECT_EQ(d2h.rfind("[copy_] called a synchronizing CUDA operation: a blocking copy from " +
                          device + " to cpu",
                      0),
            0u)
      << d2h;
  EXPECT_NE(error_of([&] { (void)dev.select(0, 0).item(); }), "");
  EXPECT_EQ(transfer_stats().host_syncs, 0);                       // refused before anything waited
  Tensor async = host.to(Device::cuda(0), /*non_blocking=*/true);  // allowed: no wait
  Tensor back = empty({2});
  back.copy_(async, /*non_blocking=*/true);
  EXPECT_NO_THROW(cuda::synchronize());  // asked for: never reported
  EXPECT_EQ(back.to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(transfer_stats().host_syncs, 0);
}

// The loop of ember-demo and W6 on a GPU: batches sent from pinned memory without waiting,
// forward, cross-entropy, backward, an SGD-with-momentum or Adam step, zero_grad. A hidden host
// wait in any of it (an item(), a bounds check read back, a blocking copy of a scalar) would
// drain the GPU's queue every step, so sync debug mode "error" must stay silent and nothing may
// be copied; the steps must also land where the same steps land on the CPU. The mode sees copies
// and reads of GPU results, not stream synchronizes, so the first steps run before it is on: the
// device's first index check sets up its error record once, with a synchronize.
TEST(CudaSyncDebugMode, TrainingStepsNeverWaitForTheGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  const Device gpu = Device::cuda(0);
  auto make_net = [] {
    manual_seed(5);
    return nn::Sequential(nn::Linear(8, 16), nn::ReLU(), nn::Linear(16, 3));
  };
  auto on_gpu = make_net(), on_cpu = make_net();
  on_gpu->to(gpu);
  manual_seed(6);
  const Tensor x = randn({4, 8}).pin_memory();
  const Tensor y = tensor({0, 2, 1, 2}, TensorOptions(kInt64)).pin_memory();
  using Optimizers = std::vector<std::unique_ptr<optim::Optimizer>>;
  auto optimizers = [](const nn::Sequential& net) {
    Optimizers o;
    o.push_back(
        std::make_unique<optim::SGD>(net->parameters(), optim::SGDOptions(0.1).momentum(0.9)));
    o.push_back(std::make_unique<optim::Adam>(net->parameters(), 0.01));
    return o;
  };
  auto train = [](const nn::Sequential& net, const Optimizers& o, const Tensor& input,
                  const Tensor& target) {
    for (int step = 0; step < 4; ++step) {
      optim::Optimizer& opt = *o[static_cast<size_t>(step % 2)];
      opt.zero_grad();
      nn::functional::cross_entropy(net->forward(input), target).backward();
      opt.step();
    }
  };
  const auto gpu_optimizers = optimizers(on_gpu), cpu_optimizers = optimizers(on_cpu);
  train(on_gpu, gpu_optimizers, x.cuda(0), y.cuda(0));
  train(on_cpu, cpu_optimizers, x, y);
  {
    SyncDebugModeGuard restore;
    cuda::set_sync_debug_mode("error");
    reset_transfer_stats();
    const Tensor input = x.cuda(0, /*non_blocking=*/true);
    const Tensor target = y.cuda(0, /*non_blocking=*/true);
    EXPECT_NO_THROW(train(on_gpu, gpu_optimizers, input, target));
    const TransferStats stats = transfer_stats();
    EXPECT_EQ(stats.host_syncs, 0);
    EXPECT_EQ(stats.host_to_device_copies, 2);  // the batch only
    EXPECT_EQ(stats.device_to_host_copies, 0);
  }
  train(on_cpu, cpu_optimizers, x, y);
  const std::vector<Tensor> got = on_gpu->parameters(), want = on_cpu->parameters();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(allclose(got[i].cpu(), want[i], 1e-4, 1e-5)) << "parameter " << i;
}

TEST(CudaSyncDebugMode, WarnModeWarnsOncePerKindOfWait) {
  EMBER_SKIP_IF_NO_CUDA();
  SyncDebugModeGuard restore;
  struct Collector : WarningHandler {
    void process(const Warning& w) override { messages.push_back(w.msg()); }
    std::vector<std::string> messages;
  } collector;
  WarningUtils::WarningHandlerGuard collect(&collector);
  const Tensor host = tensor({1.f, 2.f});
  cuda::set_sync_debug_mode("warn");
  Tensor dev = host.cuda(0);
  (void)host.cuda(0);
  (void)dev.cpu();
  (void)dev.cpu();
  // Once each: no other test warns (and ctest runs each test in a process of its own).
  EXPECT_EQ(collector.messages,
            (std::vector<std::string>{
                "[copy_] called a synchronizing CUDA operation: a blocking copy from cpu to cuda:0",
                "[copy_] called a synchronizing CUDA operation: a blocking copy from cuda:0 to "
                "cpu"}));
  EXPECT_EQ(dev.cpu().to_vector<float>(), (std::vector<float>{1.f, 2.f}));
}

}  // namespace
}  // namespace ember
