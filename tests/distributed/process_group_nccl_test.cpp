// ProcessGroupNCCL in a world of one (the GPU machines have one GPU each): each collective's
// values, non-contiguous tensors, the order against the caller's stream, and DDP on it. Without a
// GPU, what it says of CPU tensors.
#include <gtest/gtest.h>

#include <vector>

#include "ember/distributed.h"
#include "ember/distributed/process_group_nccl.h"
#include "ember/ember.h"
#include "ember/nn/parallel/distributed.h"
#include "test_util.h"

namespace ember::distributed {
namespace {

// A GPU, and NCCL to load (the GPU tests' machine may lack libnccl.so.2 on its loader path).
#define SKIP_IF_NO_NCCL()                                                             \
  do {                                                                                \
    EMBER_SKIP_IF_NO_CUDA();                                                          \
    if (!is_nccl_available()) GTEST_SKIP() << "NCCL (libnccl.so.2) cannot be loaded"; \
  } while (0)

using namespace std::chrono_literals;
using test::error_of;

std::vector<double> host_values(const Tensor& t) {
  return t.cpu().to(kDouble).contiguous().to_vector<double>();
}

TEST(ProcessGroupNCCL, IsTheNcclBackendAndRefusesCpuTensors) {
  init_process_group("nccl", "", 10s, 1, 0, std::make_shared<HashStore>());
  EXPECT_EQ(get_backend(), "nccl");
  Tensor t = ones({2});
  EXPECT_EQ(error_of<ValueError>([&] { all_reduce(t); }),
            "[ProcessGroupNCCL.allreduce] got a tensor on cpu; NCCL takes CUDA tensors: move it "
            "with .cuda(), or use the gloo backend for CPU tensors");
  destroy_process_group();
}

TEST(ProcessGroupNCCL, EveryCollectiveInAWorldOfOne) {
  SKIP_IF_NO_NCCL();
  ProcessGroupNCCL group(std::make_shared<HashStore>(), 0, 1);
  const TensorOptions on_gpu = TensorOptions(kFloat).device(Device("cuda:0"));
  // Made on a side stream just before: the group's stream must wait for it.
  StreamGuard on_side(get_stream_from_pool(Device("cuda:0")));
  std::vector<Tensor> t{arange(6, on_gpu).view({2, 3}).t() * 2};  // non-contiguous
  AllreduceOptions avg;
  avg.reduceOp = ReduceOp::AVG;
  group.allreduce(t, avg)->wait();
  EXPECT_EQ(host_values(t[0]), host_values((arange(6, kFloat).view({2, 3}).t() * 2)));
  group.broadcast(t)->wait();
  EXPECT_EQ(host_values(t[0]), host_values((arange(6, kFloat).view({2, 3}).t() * 2)));

  std::vector<Tensor> in{full({3}, 7.0, on_gpu)};
  std::vector<std::vector<Tensor>> out{{empty({3}, on_gpu)}};
  group.allgather(out, in)->wait();
  EXPECT_EQ(host_values(out[0][0]), std::vector<double>(3, 7.0));
  std::vector<Tensor> piece{empty({3}, on_gpu)};
  std::vector<std::vector<Tensor>> pieces{{full({3}, 5.0, on_gpu)}};
  group.reduce_scatter(piece, pieces)->wait(10s);
  EXPECT_EQ(host_values(piece[0]), std::vector<double>(3, 5.0));
  auto barrier = group.barrier();
  barrier->wait();
  EXPECT_TRUE(barrier->isCompleted());
}

TEST(ProcessGroupNCCL, DistributedDataParallelOnOneGpu) {
  SKIP_IF_NO_NCCL();
  auto group = std::make_shared<ProcessGroupNCCL>(std::make_shared<HashStore>(), 0, 1);
  manual_seed(5);
  nn::Linear layer(4, 3), plain(4, 3);
  layer->to(Device("cuda:0"));
  {
    NoGradGuard no_grad;
    plain->weight.copy_(layer->weight);
    plain->bias.copy_(layer->bias);
  }
  nn::parallel::DistributedDataParallel ddp(
      layer, nn::parallel::DistributedDataParallelOptions().process_group(group));
  Tensor x = randn({5, 4});
  ddp(x.cuda()).pow(2).sum().backward();
  plain(x).pow(2).sum().backward();
  EXPECT_LT((layer->weight.grad().cpu() - plain->weight.grad()).abs().max().item<double>(), 1e-5);
  EXPECT_LT((layer->bias.grad().cpu() - plain->bias.grad()).abs().max().item<double>(), 1e-5);
}

}  // namespace
}  // namespace ember::distributed
