// The CUDA device layer in every build: CPU-only (NotCompiledError), CUDA without a GPU ("No CUDA
// GPUs are available", fallbacks to the CPU) and with GPUs (ordinals, guards, properties, copies).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

#if defined(__linux__)
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace ember {
namespace {

using test::error_of;
using test::expect_values;

bool cuda_build_without_gpu() { return cuda::built_with_cuda() && !cuda::is_available(); }

std::string visible_devices_note() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  return std::string("(CUDA_VISIBLE_DEVICES=") + (v ? std::string("'") + v + "'" : "unset") + ")";
}

// ---- every build

TEST(DeviceCuda, QueriesNeverThrowAndAgree) {
  bool available = false;
  int count = -1;
  EXPECT_NO_THROW(available = cuda::is_available());
  EXPECT_NO_THROW(count = cuda::device_count());
  EXPECT_GE(count, 0);
  EXPECT_EQ(available, count > 0);
  EXPECT_EQ(cuda::unavailable_reason().empty(), available) << cuda::unavailable_reason();
  if (!cuda::built_with_cuda()) {
    EXPECT_FALSE(available);
  }
}

TEST(DeviceCuda, FallbackHelpersGiveTheCpuWithoutGpu) {
  if (cuda::is_available()) GTEST_SKIP() << "a GPU is usable; see FallbackHelpersWithGpu";
  EXPECT_EQ(cuda::device_count(), 0);
  EXPECT_FALSE(cuda::unavailable_reason().empty());
  EXPECT_EQ(try_gpu(), Device::cpu());
  EXPECT_EQ(try_gpu(0), Device::cpu());
  EXPECT_EQ(try_gpu(10), Device::cpu());
  EXPECT_EQ(try_all_gpus(), std::vector<Device>{Device::cpu()});
  // Work placed with try_gpu() runs on the CPU.
  Tensor x = ones({2}, try_gpu());
  EXPECT_EQ(x.device(), Device::cpu());
  expect_values<float>(x, {2}, {1.f, 1.f});
}

TEST(DeviceCuda, NoOpGuardsNeedNoGpu) {
  EXPECT_NO_THROW({ cuda::DeviceGuard g(-1); });
  EXPECT_NO_THROW({ cuda::DeviceGuard g(Device::cpu()); });
  EXPECT_NO_THROW({ cuda::DeviceGuard g(Device("cpu")); });
}

// ---- a build without CUDA

TEST(DeviceCuda, CpuOnlyBuildSaysNotCompiled) {
  if (cuda::built_with_cuda()) GTEST_SKIP() << "ember was built with CUDA";
  const std::string expected =
      "[ember] built without CUDA support; reconfigure with -DEMBER_CUDA=ON";
  Tensor x = ones({2});
  std::vector<std::string> messages = {
      error_of<NotCompiledError>([] { (void)ones({2}, Device("cuda")); }),
      error_of<NotCompiledError>([] { (void)empty({2}, Device("cuda:1")); }),
      error_of<NotCompiledError>([&] { (void)x.to("cuda"); }),
      error_of<NotCompiledError>([&] { (void)x.cuda(); }),
      error_of<NotCompiledError>([] { cuda::set_device(0); }),
      error_of<NotCompiledError>([] { (void)cuda::current_device(); }),
      error_of<NotCompiledError>([] { cuda::synchronize(); }),
      error_of<NotCompiledError>([] { (void)cuda::get_device_name(0); }),
      error_of<NotCompiledError>([] { (void)cuda::get_device_properties(0); }),
      error_of<NotCompiledError>([] { (void)cuda::mem_get_info(0); }),
      error_of<NotCompiledError>([] { (void)cuda::device_memory_used(0); }),
      error_of<NotCompiledError>([] { (void)cuda::can_device_access_peer(0, 1); }),
      error_of<NotCompiledError>([] { cuda::DeviceGuard g(0); }),
  };
  for (size_t i = 0; i < messages.size(); ++i)
    EXPECT_NE(messages[i].find(expected), std::string::npos) << "case " << i << ": " << messages[i];
  EXPECT_EQ(cuda::unavailable_reason(), "ember was built without CUDA");
  EXPECT_EQ(cuda::device_count(), 0);
  EXPECT_FALSE(cuda::is_available());
}

// ---- a CUDA build on a machine without a usable GPU (CI)

TEST(DeviceCuda, CudaBuildWithoutGpuSaysNoGpus) {
  if (!cuda_build_without_gpu()) GTEST_SKIP() << "needs a CUDA build on a machine without a GPU";
  const std::string reason = cuda::unavailable_reason();
  ASSERT_FALSE(reason.empty());
  Tensor x = ones({2});
  std::vector<std::string> messages = {
      error_of<CudaError>([] { (void)ones({2}, Device("cuda")); }),
      error_of<CudaError>([] { (void)empty({2}, Device("cuda:0")); }),
      error_of<CudaError>(
          [] { (void)zeros({2}, Device("cuda:3")); }),  // no GPU beats a bad ordinal
      error_of<CudaError>([&] { (void)x.to("cuda"); }),
      error_of<CudaError>([&] { (void)x.to(Device::cuda(0)); }),
      error_of<CudaError>([&] { (void)x.cuda(); }),
      error_of<CudaError>([] { cuda::set_device(0); }),
      error_of<CudaError>([] { (void)cuda::current_device(); }),
      error_of<CudaError>([] { cuda::synchronize(); }),
      error_of<CudaError>([] { cuda::synchronize(0); }),
      error_of<CudaError>([] { (void)cuda::get_device_name(); }),
      error_of<CudaError>([] { (void)cuda::get_device_properties(0); }),
      error_of<CudaError>([] { (void)cuda::mem_get_info(0); }),
      error_of<CudaError>([] { (void)cuda::device_memory_used(0); }),
      error_of<CudaError>([] { (void)cuda::can_device_access_peer(0, 1); }),
      error_of<CudaError>([] { cuda::DeviceGuard g(0); }),
      error_of<CudaError>([] { cuda::DeviceGuard g(Device("cuda")); }),
  };
  for (size_t i = 0; i < messages.size(); ++i) {
    EXPECT_EQ(messages[i].rfind("No CUDA GPUs are available: ", 0), 0u)
        << "case " << i << ": " << messages[i];
    EXPECT_NE(messages[i].find(reason), std::string::npos) << "case " << i << ": " << messages[i];
  }
  // Still a plain ember::Error for callers that catch the base.
  EXPECT_NE(error_of<Error>([] { cuda::set_device(0); }), "");
  EXPECT_NO_THROW(cuda::set_device(-1));  // a negative index is a no-op, as in PyTorch
  // The failures leave the library usable on the CPU.
  expect_values<float>(x + 1, {2}, {2.f, 2.f});
}

#if defined(__linux__)
// The body runs only in a child process started by EmptyCudaVisibleDevicesHidesEveryGpu, since
// CUDA reads CUDA_VISIBLE_DEVICES once, when it initialises.
constexpr const char* kChildMarkerVar = "EMBER_TEST_CVD_CHILD_MARKER";

TEST(DeviceCuda, EmptyCudaVisibleDevicesChild) {
  const char* marker = std::getenv(kChildMarkerVar);
  if (marker == nullptr)
    GTEST_SKIP() << "runs only as the child of EmptyCudaVisibleDevicesHidesEveryGpu";
  EXPECT_EQ(cuda::device_count(), 0);
  EXPECT_FALSE(cuda::is_available());
  EXPECT_EQ(try_gpu(), Device::cpu());
  const std::string reason = cuda::unavailable_reason();
  EXPECT_NE(reason.find("CUDA_VISIBLE_DEVICES=''"), std::string::npos) << reason;
  std::string msg = error_of<CudaError>([] { (void)empty({1}, Device("cuda")); });
  EXPECT_EQ(msg.rfind("No CUDA GPUs are available: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("CUDA_VISIBLE_DEVICES=''"), std::string::npos) << msg;
  if (!::testing::Test::HasFailure()) std::ofstream(marker) << "ok";
}

TEST(DeviceCuda, EmptyCudaVisibleDevicesHidesEveryGpu) {
  if (!cuda::built_with_cuda())
    GTEST_SKIP() << "a CPU-only build never looks at CUDA_VISIBLE_DEVICES";
  if (std::getenv(kChildMarkerVar) != nullptr) GTEST_SKIP() << "already the child";
  std::string marker = ::testing::TempDir() + "ember_cvd_child_" + std::to_string(getpid());
  std::remove(marker.c_str());
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string s = *e;
    // A shard's variables would make the child skip its one test unless it fell in this shard.
    if (s.rfind("CUDA_VISIBLE_DEVICES=", 0) == 0 || s.rfind(kChildMarkerVar, 0) == 0 ||
        s.rfind("GTEST_TOTAL_SHARDS=", 0) == 0 || s.rfind("GTEST_SHARD_INDEX=", 0) == 0)
      continue;
    env_strings.push_back(s);
  }
  env_strings.push_back("CUDA_VISIBLE_DEVICES=");
  env_strings.push_back(std::string(kChildMarkerVar) + "=" + marker);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe";
  std::string filter = "--gtest_filter=DeviceCuda.EmptyCudaVisibleDevicesChild";
  std::vector<char*> argv = {exe.data(), filter.data(), nullptr};
  std::fflush(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died, status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::string got;
  std::ifstream(marker) >> got;
  EXPECT_EQ(got, "ok") << "the child did not run its checks";
  std::remove(marker.c_str());
}
#endif

// ---- with a GPU

TEST(DeviceCuda, FallbackHelpersWithGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  int n = cuda::device_count();
  EXPECT_EQ(try_gpu(), Device::cuda(0));
  EXPECT_EQ(try_gpu(n - 1), Device::cuda(n - 1));
  EXPECT_EQ(try_gpu(n), Device::cpu());
  std::vector<Device> all = try_all_gpus();
  ASSERT_EQ(static_cast<int>(all.size()), n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(all[static_cast<size_t>(i)], Device::cuda(i));
  EXPECT_TRUE(cuda::unavailable_reason().empty());
}

TEST(DeviceCuda, InvalidOrdinalNamesTheVisibleCount) {
  EMBER_SKIP_IF_NO_CUDA();
  const int n = cuda::device_count();
  const int before = cuda::current_device();
  const std::string expected =
      "CUDA error: invalid device ordinal: cuda:" + std::to_string(n) + " was requested but " +
      std::to_string(n) + (n == 1 ? " CUDA device is visible " : " CUDA devices are visible ") +
      visible_devices_note();
  Tensor x = tensor({1.f, 2.f});
  std::vector<std::string> messages = {
      error_of<CudaError>([&] { (void)empty({2}, Device::cuda(n)); }),
      error_of<CudaError>([&] { (void)x.to(Device::cuda(n)); }),
      error_of<CudaError>([&] { (void)x.cuda(n); }),
      error_of<CudaError>([&] { cuda::set_device(n); }),
      error_of<CudaError>([&] { cuda::synchronize(n); }),
      error_of<CudaError>([&] { (void)cuda::get_device_properties(n); }),
      error_of<CudaError>([&] { (void)cuda::mem_get_info(n); }),
      error_of<CudaError>([&] { (void)cuda::device_memory_used(n); }),
      error_of<CudaError>([&] { cuda::DeviceGuard g(n); }),
      error_of<CudaError>([&] { cuda::DeviceGuard g(Device::cuda(n)); }),
  };
  for (size_t i = 0; i < messages.size(); ++i)
    EXPECT_EQ(messages[i].rfind(expected, 0), 0u) << "case " << i << ": " << messages[i];
  // The same message for an ordinal far past the count, and nothing changed on failure.
  std::string far = error_of<CudaError>([] { cuda::set_device(100); });
  EXPECT_NE(far.find("invalid device ordinal: cuda:100 was requested"), std::string::npos) << far;
  EXPECT_EQ(cuda::current_device(), before);
}

TEST(DeviceCuda, DeviceGuardSetsAndRestoresPerThread) {
  EMBER_SKIP_IF_NO_CUDA();
  const int n = cuda::device_count();
  const int before = cuda::current_device();
  const int last = n - 1;
  {
    cuda::DeviceGuard g(last);
    EXPECT_EQ(cuda::current_device(), last);
    // A factory without an index allocates on the guarded device and records it.
    Tensor t = empty({2}, Device("cuda"));
    EXPECT_EQ(t.device(), Device::cuda(last));
    EXPECT_EQ(tensor({1.f}).to("cuda").device(), Device::cuda(last));
    {
      cuda::DeviceGuard inner(0);
      EXPECT_EQ(cuda::current_device(), 0);
      cuda::DeviceGuard none(-1);
      EXPECT_EQ(cuda::current_device(), 0);
    }
    EXPECT_EQ(cuda::current_device(), last);
    // Another thread has its own current device.
    int seen = -2;
    std::thread th([&] {
      cuda::DeviceGuard other(0);
      seen = cuda::current_device();
    });
    th.join();
    EXPECT_EQ(seen, 0);
    EXPECT_EQ(cuda::current_device(), last);
  }
  EXPECT_EQ(cuda::current_device(), before);
  {
    cuda::DeviceGuard g(Device::cuda(last));
    EXPECT_EQ(cuda::current_device(), last);
  }
  EXPECT_EQ(cuda::current_device(), before);
  {
    cuda::DeviceGuard g(Device::cpu());
    EXPECT_EQ(cuda::current_device(), before);
  }
  // set_device changes it for good (on this thread).
  cuda::set_device(last);
  EXPECT_EQ(cuda::current_device(), last);
  cuda::set_device(before);
  EXPECT_EQ(cuda::current_device(), before);
}

TEST(DeviceCuda, PropertiesAreSane) {
  EMBER_SKIP_IF_NO_CUDA();
  const std::regex bus_id("^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-9a-fA-F]$");
  for (int i = 0; i < cuda::device_count(); ++i) {
    SCOPED_TRACE("cuda:" + std::to_string(i));
    cuda::DeviceProperties p = cuda::get_device_properties(i);
    EXPECT_FALSE(p.name.empty());
    EXPECT_EQ(cuda::get_device_name(i), p.name);
    EXPECT_GT(p.total_memory, size_t{256} << 20);
    EXPECT_GE(p.major, 5);
    EXPECT_GE(p.minor, 0);
    EXPECT_GT(p.multi_processor_count, 0);
    EXPECT_TRUE(std::regex_match(p.pci_bus_id, bus_id)) << p.pci_bus_id;
    cuda::MemInfo m = cuda::mem_get_info(i);
    EXPECT_GT(m.total, 0u);
    EXPECT_LE(m.free, m.total);
    EXPECT_LE(m.total, p.total_memory + (size_t{64} << 20));
    EXPECT_NO_THROW(cuda::synchronize(i));
  }
  // index -1 means the current device.
  EXPECT_EQ(cuda::get_device_name(), cuda::get_device_name(cuda::current_device()));
  EXPECT_NO_THROW(cuda::synchronize());
}

// Peer access, and copies between GPUs with it enabled on first use (Note [Peer access]).
TEST(DeviceCuda, PeerAccessAndCopiesBetweenGpus) {
  EMBER_SKIP_IF_NO_CUDA();
  const int n = cuda::device_count();
  EXPECT_FALSE(cuda::can_device_access_peer(0, 0));
  EXPECT_NE(error_of<CudaError>([n] {
              (void)cuda::can_device_access_peer(0, n);
            }).find("invalid device ordinal: cuda:" + std::to_string(n)),
            std::string::npos);
  if (n < 2) GTEST_SKIP() << "the copies need two GPUs, " << n << " visible";
  const Tensor x = arange(1 << 20, kFloat32);
  for (int from = 0; from < 2; ++from) {
    SCOPED_TRACE("from cuda:" + std::to_string(from) + ", peer access " +
                 (cuda::can_device_access_peer(from, 1 - from) ? "possible" : "impossible"));
    const Tensor there = x.cuda(from).to(Device::cuda(1 - from));
    EXPECT_EQ(there.device(), Device::cuda(1 - from));
    EXPECT_TRUE(equal(there.cpu(), x));
    EXPECT_TRUE(equal(there.to(Device::cuda(from)).cpu(), x));  // the pair's second copy
  }
}

TEST(DeviceCuda, RoundTripPreservesValues) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor x = tensor({{1.5f, -2.f, 3.25f}, {4.f, 5.f, -6.5f}});
  Tensor ints = tensor({int64_t{1} << 40, -3, 7});
  for (Device gpu : try_all_gpus()) {
    SCOPED_TRACE(gpu.str());
    Tensor y = x.to(gpu);
    EXPECT_EQ(y.device(), gpu);
    EXPECT_EQ(y.dtype(), kFloat32);
    EXPECT_TRUE(y.to(gpu).is_same(y));  // nothing to do: the same tensor
    Tensor z = y.cpu();
    EXPECT_EQ(z.device(), Device::cpu());
    expect_values<float>(z, {2, 3}, {1.5f, -2.f, 3.25f, 4.f, 5.f, -6.5f});
    expect_values<int64_t>(ints.to(gpu), {3}, {int64_t{1} << 40, -3, 7});
    // Non-contiguous source: densified on the CPU before the transfer.
    expect_values<float>(x.t().to(gpu), {3, 2}, {1.5f, 4.f, -2.f, 5.f, 3.25f, -6.5f});
    // Empty tensors move too.
    Tensor e = empty({0, 3}).to(gpu);
    EXPECT_EQ(e.device(), gpu);
    EXPECT_EQ(e.cpu().numel(), 0);
  }
  if (cuda::device_count() >= 2) {  // device to device through cudaMemcpyPeer
    Tensor y1 = x.to("cuda:1");
    Tensor y0 = y1.to("cuda:0");
    EXPECT_EQ(y0.device(), Device::cuda(0));
    expect_values<float>(y0, {2, 3}, {1.5f, -2.f, 3.25f, 4.f, 5.f, -6.5f});
  }
}

}  // namespace
}  // namespace ember
