// Index errors found by GPU kernels (Note [Index errors found by GPU kernels]): every index op
// raises the CPU's error at the host's next wait instead of waiting itself, once, and the device
// stays usable; a classifier's training step makes no host wait at all; under
// CUDA_LAUNCH_BLOCKING=1 (CTest entry cuda_launch_blocking) the call itself raises. Skips visibly
// without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ember/nn/functional.h"
#include "test_util.h"

namespace ember {
namespace {

namespace F = nn::functional;
using test::error_of;

struct IndexCase {
  const char* name;
  std::vector<Tensor> inputs;  // on the CPU
  std::function<Tensor(const std::vector<Tensor>&)> op;
};

// One bad index each, so the GPU's report names the same value as the CPU's check.
std::vector<IndexCase> index_cases() {
  using V = const std::vector<Tensor>&;
  return {
      {"gather",
       {arange(12, kFloat32).view({3, 4}), tensor({{0, 7}})},
       [](V in) { return gather(in[0], 0, in[1]); }},
      {"scatter",
       {zeros({2, 3}), tensor({{5}}), ones({1, 1})},
       [](V in) { return scatter(in[0], 1, in[1], in[2]); }},
      {"scatter_add",
       {zeros({2, 3}), tensor({{-1}}), ones({1, 1})},
       [](V in) { return scatter_add(in[0], 1, in[1], in[2]); }},
      {"index_select",
       {ones({2, 3}), tensor({0, 3})},
       [](V in) { return index_select(in[0], 1, in[1]); }},
      {"index_select of an empty tensor",
       {ones({0, 3}), tensor({4})},
       [](V in) { return index_select(in[0], 1, in[1]); }},
      {"embedding", {ones({4, 2}), tensor({1, 9})}, [](V in) { return embedding(in[0], in[1]); }},
      {"nll_loss", {zeros({2, 3}), tensor({0, 3})}, [](V in) { return F::nll_loss(in[0], in[1]); }},
      {"cross_entropy with class weights",
       {zeros({2, 3}), tensor({1, -5}), ones({3})},
       [](V in) {
         return F::cross_entropy(in[0], in[1], F::CrossEntropyFuncOptions().weight(in[2]));
       }},
      {"one_hot", {tensor({0, 5})}, [](V in) { return one_hot(in[0], 3); }},
  };
}

std::vector<Tensor> to(const std::vector<Tensor>& tensors, Device device) {
  std::vector<Tensor> moved;
  for (const Tensor& t : tensors) moved.push_back(t.to(device));
  return moved;
}

TEST(KernelErrors, EveryIndexOpRaisesTheCpuErrorAtTheNextWait) {
  EMBER_SKIP_IF_NO_CUDA();
  for (const IndexCase& c : index_cases()) {
    SCOPED_TRACE(c.name);
    const std::string cpu_message = error_of([&] { c.op(c.inputs); });
    ASSERT_FALSE(cpu_message.empty());
    const std::vector<Tensor> inputs = to(c.inputs, Device::cuda(0));
    reset_transfer_stats();
    EXPECT_NO_THROW(c.op(inputs));
    EXPECT_EQ(transfer_stats().host_syncs, 0) << "the op waited for the GPU";
    const std::string message = error_of([] { cuda::synchronize(); });
    EXPECT_EQ(message.rfind(cpu_message + " (found by a kernel on cuda:0 and reported at the next "
                                          "wait for the GPU; run with CUDA_LAUNCH_BLOCKING=1",
                            0),
              0u)
        << message << "\nthe CPU says: " << cpu_message;
    EXPECT_EQ(error_of([] { cuda::synchronize(); }), "") << "raised twice";
  }
}

TEST(KernelErrors, EveryKindOfWaitRaises) {
  EMBER_SKIP_IF_NO_CUDA();
  const Device gpu = Device::cuda(0);
  const Tensor x = arange(12, kFloat32).view({3, 4}).to(gpu), bad = tensor({{9}}).to(gpu);
  const std::vector<std::pair<const char*, std::function<void()>>> waits = {
      {"cuda::synchronize", [] { cuda::synchronize(); }},
      {"a stream's synchronize", [] { cuda::current_stream().synchronize(); }},
      {"an event's synchronize",
       [] {
         cuda::Event e;
         e.record();
         e.synchronize();
       }},
      {"a blocking copy to the host", [&] { (void)x.cpu(); }},
      {"item", [&] { (void)x.sum().item<float>(); }},
      {"a read of a non_blocking copy", [&] { (void)x.to(Device::cpu(), true).data_ptr(); }},
      {"a read of a non_blocking copy that has arrived",
       [&] {
         Tensor host = x.to(Device::cpu(), true);
         while (!cuda::current_stream().query()) {  // a query is no wait: raises nothing
         }
         (void)host.data_ptr();
       }},
      {"a non_blocking copy into pageable memory",
       [&] {
         empty({3, 4}).copy_(x, /*non_blocking=*/true);
       }},
  };
  for (const auto& [name, wait] : waits) {
    SCOPED_TRACE(name);
    (void)gather(x, 0, bad);
    EXPECT_NE(error_of<IndexError>(wait).find("[gather] index 9 is out of bounds"),
              std::string::npos);
  }
}

// A device's first index check sets up its record and claims word without waiting for the GPU
// (Note [A kernel-error word without a wait]), so even sync debug mode "error" lets it pass, and
// the word reads zero from the start: the first bad index is reported. CTest runs this in a
// process of its own, where these are the first checks of every device.
TEST(KernelErrors, TheFirstCheckOfADeviceNeitherWaitsNorMissesAReport) {
  EMBER_SKIP_IF_NO_CUDA();
  const int saved = cuda::get_sync_debug_mode();
  for (int i = 0; i < cuda::device_count(); ++i) {
    const Device gpu = Device::cuda(i);
    const Tensor x = arange(12, kFloat32).view({3, 4}).to(gpu), bad = tensor({{5}}).to(gpu);
    cuda::set_sync_debug_mode("error");
    reset_transfer_stats();
    EXPECT_NO_THROW((void)gather(x, 0, bad));
    EXPECT_EQ(transfer_stats().host_syncs, 0);
    cuda::set_sync_debug_mode(saved);
    const std::string message = error_of<IndexError>([i] { cuda::synchronize(i); });
    EXPECT_NE(message.find("[gather] index 5 is out of bounds for dimension 0 with size 3"),
              std::string::npos)
        << message;
  }
}

TEST(KernelErrors, TheDeviceStaysUsableAndReportsAgain) {
  EMBER_SKIP_IF_NO_CUDA();
  const Device gpu = Device::cuda(0);
  const Tensor x = arange(12, kFloat32).view({3, 4}).to(gpu);
  for (int64_t bad : {3, -4}) {
    (void)gather(x, 0, tensor({{bad}}).to(gpu));
    EXPECT_NE(error_of<IndexError>([] {
                cuda::synchronize();
              }).find("index " + std::to_string(bad) + " is out of bounds"),
              std::string::npos);
    test::expect_values<float>(gather(x, 0, tensor({{2, 0, 1, 2}}).to(gpu)).cpu(), {1, 4},
                               {8, 1, 6, 11});
  }
}

// PyTorch's cross_entropy checks its targets on the device too; before this, ember waited three
// times per step (nll_loss's check, gather, and scatter in the backward).
TEST(KernelErrors, AClassifierStepNeverWaitsForTheGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  const Device gpu = Device::cuda(0);
  manual_seed(7);
  const Tensor logits_cpu = randn({8, 5}), target_cpu = randint(0, 5, {8});
  const Tensor table_cpu = randn({6, 3}), ids_cpu = tensor({0, 5, 2, 2});
  Tensor logits = logits_cpu.to(gpu).requires_grad_(), target = target_cpu.to(gpu);
  Tensor table = table_cpu.to(gpu).requires_grad_(), ids = ids_cpu.to(gpu);
  const int saved = cuda::get_sync_debug_mode();
  cuda::set_sync_debug_mode("error");
  reset_transfer_stats();
  EXPECT_NO_THROW({
    Tensor loss = F::cross_entropy(logits, target) + embedding(table, ids).sum();
    loss.backward();
  });
  EXPECT_EQ(transfer_stats().host_syncs, 0);
  cuda::set_sync_debug_mode(saved);
  Tensor logits_ref = logits_cpu.clone().requires_grad_();
  F::cross_entropy(logits_ref, target_cpu).backward();
  EXPECT_TRUE(allclose(logits.grad().cpu(), logits_ref.grad(), 1e-5, 1e-6));
  test::expect_values<float>(table.grad().cpu(), {6, 3},
                             {1, 1, 1, 0, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1});
}

// ---- run by the CTest entry cuda_launch_blocking, with CUDA_LAUNCH_BLOCKING=1

bool launch_blocking() {
  const char* v = std::getenv("CUDA_LAUNCH_BLOCKING");
  return v != nullptr && std::string_view(v) == "1";
}

TEST(CudaLaunchBlocking, TheCallRaisesAKernelsIndexError) {
  if (!launch_blocking()) GTEST_SKIP() << "runs under CTest's cuda_launch_blocking entry";
  EMBER_SKIP_IF_NO_CUDA();
  const Device gpu = Device::cuda(0);
  const Tensor x = arange(12, kFloat32).view({3, 4}).to(gpu), bad = tensor({{0, 7}}).to(gpu);
  EXPECT_EQ(error_of<IndexError>([&] { (void)gather(x, 0, bad); }),
            "[gather] index 7 is out of bounds for dimension 0 with size 3 (found by the kernel "
            "on cuda:0)");
  EXPECT_EQ(error_of([] { cuda::synchronize(); }), "") << "raised twice";
  test::expect_values<float>(gather(x, 1, tensor({{3}, {0}, {1}}).to(gpu)).cpu(), {3, 1},
                             {3, 4, 9});
}

}  // namespace
}  // namespace ember
