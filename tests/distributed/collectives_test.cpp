// torch.distributed's functions in one process: a world of one over a HashStore, and the errors
// of a rendezvous that cannot happen. Several ranks run under ember-run (distributed/*.cpp's
// collectives_check) and as threads (process_group_gloo_test.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>

#include "ember/distributed.h"
#include "test_util.h"

namespace ember::distributed {
namespace {

using namespace std::chrono_literals;
using test::error_of;

// No rank, world size or master in the environment, as outside ember-run.
void clear_environment() {
  for (const char* name : {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
                           "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}) {
    unsetenv(name);
  }
}

TEST(Collectives, AWorldOfOneOverAHashStore) {
  if (!is_gloo_available()) GTEST_SKIP() << "built without Gloo";
  ASSERT_FALSE(is_initialized());
  init_process_group("gloo", "", 10s, 1, 0, std::make_shared<HashStore>());
  ASSERT_TRUE(is_initialized());
  EXPECT_EQ(get_rank(), 0);
  EXPECT_EQ(get_world_size(), 1);
  EXPECT_EQ(get_backend(), "gloo");

  Tensor t = arange(4, kFloat);
  EXPECT_EQ(all_reduce(t), nullptr);  // not async: done on return
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{0, 1, 2, 3}));
  auto work = all_reduce(t, ReduceOp::MAX, nullptr, /*async_op=*/true);
  ASSERT_NE(work, nullptr);
  EXPECT_TRUE(work->wait());
  broadcast(t, 0);
  std::vector<Tensor> all{empty({4}, kFloat)};
  all_gather(all, t);
  EXPECT_EQ(all[0].to_vector<float>(), (std::vector<float>{0, 1, 2, 3}));

  auto group = new_group({0});
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(get_rank(group), 0);
  all_reduce(t, ReduceOp::SUM, group);
  EXPECT_EQ(error_of<ValueError>([&] { broadcast(t, 1, group); }),
            "[broadcast] global rank 1 is not in the group (its ranks: 0)");
  barrier();

  EXPECT_EQ(
      error_of([] { init_process_group("gloo", "", 10s, 1, 0, std::make_shared<HashStore>()); }),
      "[init_process_group] the default process group is already initialized; call "
      "destroy_process_group() before initializing it again");
  destroy_process_group();
  EXPECT_FALSE(is_initialized());
}

TEST(Collectives, WithoutInitProcessGroupSaysToCallIt) {
  ASSERT_FALSE(is_initialized());
  Tensor t = ones({2});
  EXPECT_EQ(error_of([&] { all_reduce(t); }),
            "[all_reduce] the default process group is not initialized; call "
            "ember::distributed::init_process_group() first");
}

TEST(Collectives, RendezvousWithoutTheEnvironmentSaysHowToStart) {
  clear_environment();
  EXPECT_EQ(error_of<ValueError>([] { init_process_group("gloo"); }),
            "[init_process_group] WORLD_SIZE is not set and no world_size was passed; start the "
            "program with ember-run --nproc N (which sets RANK, WORLD_SIZE, MASTER_ADDR and "
            "MASTER_PORT), or set them yourself");
  setenv("WORLD_SIZE", "2", 1);
  setenv("RANK", "two", 1);
  EXPECT_EQ(error_of<ValueError>([] { init_process_group("gloo"); }),
            "[init_process_group] the environment variable RANK='two' is not a non-negative "
            "integer");
  setenv("RANK", "1", 1);
  EXPECT_EQ(error_of<ValueError>([] { init_process_group("gloo"); }),
            "[init_process_group] env:// needs MASTER_ADDR and MASTER_PORT (MASTER_ADDR='', "
            "MASTER_PORT=''); start the program with ember-run, which sets them, or set them to "
            "rank 0's address and a free port");
  clear_environment();
  EXPECT_EQ(error_of<ValueError>([] { init_process_group("gloo", "udp://host:1", 1s, 2, 0); }),
            "[init_process_group] unknown init method 'udp://host:1'; use env://, tcp://HOST:PORT "
            "or file:///PATH");
  EXPECT_EQ(error_of<ValueError>([] { init_process_group("gloo", "tcp://host", 1s, 2, 0); }),
            "[init_process_group] init method 'tcp://host' has no host:port; write "
            "tcp://HOST:PORT");
  EXPECT_EQ(error_of<ValueError>([] { init_process_group("gloo", "", 1s, 2, 2); }),
            "[init_process_group] rank 2 is not in a world of size 2; the rank must be in [0, "
            "world_size)");
  EXPECT_FALSE(is_initialized());
}

TEST(Collectives, UnknownAndMissingBackendsAreNamed) {
  EXPECT_EQ(error_of<ValueError>(
                [] { init_process_group("glue", "", 1s, 1, 0, std::make_shared<HashStore>()); }),
            "[init_process_group] unknown backend 'glue'; use gloo, or leave it empty for the "
            "default");
  EXPECT_EQ(error_of<NotImplementedError>(
                [] { init_process_group("mpi", "", 1s, 1, 0, std::make_shared<HashStore>()); }),
            "[init_process_group] the mpi backend is not in ember yet; use gloo (CPU tensors) "
            "or nccl (CUDA tensors)");
  EXPECT_FALSE(is_initialized());
}

TEST(Collectives, WorkOfAnotherKindHasNoSourceRank) {
  Work work(0, OpType::ALLREDUCE);
  EXPECT_EQ(error_of([&] { work.sourceRank(); }),
            "[Work.sourceRank] only a recv from any source has a source rank; this is a "
            "ALLREDUCE work");
  EXPECT_EQ(opTypeToString(OpType::REDUCE_SCATTER), "REDUCE_SCATTER");
}

}  // namespace
}  // namespace ember::distributed
