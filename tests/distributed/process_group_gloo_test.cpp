// ProcessGroupGloo with threads standing in for ranks: every collective, against values worked
// out here from each rank's inputs, over world sizes 1 to 4.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <future>
#include <numeric>
#include <thread>

#include "ember/distributed.h"
#include "test_util.h"

namespace ember::distributed {
namespace {

using namespace std::chrono_literals;
using test::error_of;

// Runs body(group, rank) on `world` threads, each a rank of one group over one HashStore.
void run_ranks(int world, const std::function<void(ProcessGroupGloo&, int)>& body,
               std::chrono::milliseconds timeout = 20s) {
  auto store = std::make_shared<HashStore>();
  std::vector<std::thread> threads;
  for (int rank = 0; rank < world; ++rank) {
    threads.emplace_back([&, rank] {
      auto options = ProcessGroupGloo::Options::create(timeout);
      options->hostname = "127.0.0.1";
      ProcessGroupGloo group(store, rank, world, options);
      body(group, rank);
    });
  }
  for (std::thread& t : threads) t.join();
}

std::vector<double> values(const Tensor& t) {
  return t.to(kDouble).contiguous().to_vector<double>();
}

// Rank r's input: element i holds r + 1 + (i % 2), small integers every dtype holds exactly,
// whose products over four ranks (at most 120) bfloat16 still holds.
Tensor rank_input(int rank, int64_t n, ScalarType dtype) {
  return (arange(n, kDouble).remainder(2) + (rank + 1)).to(dtype);
}

double combine(ReduceOp op, int world, int64_t i) {
  std::vector<double> v;
  for (int r = 0; r < world; ++r) v.push_back(r + 1 + static_cast<double>(i % 2));
  if (op == ReduceOp::SUM) return std::accumulate(v.begin(), v.end(), 0.0);
  if (op == ReduceOp::AVG) return std::accumulate(v.begin(), v.end(), 0.0) / world;
  if (op == ReduceOp::PRODUCT) return std::accumulate(v.begin(), v.end(), 1.0, std::multiplies<>());
  if (op == ReduceOp::MIN) return *std::min_element(v.begin(), v.end());
  if (op == ReduceOp::MAX) return *std::max_element(v.begin(), v.end());
  ADD_FAILURE() << "no expected value for op " << static_cast<int>(op.op_);
  return 0;
}

TEST(ProcessGroupGloo, AllreduceEveryDtypeOpAndWorldSize) {
  const std::vector<ScalarType> dtypes{kFloat, kDouble, kLong, kHalf, kBFloat16};
  const std::vector<ReduceOp> ops{ReduceOp::SUM, ReduceOp::AVG, ReduceOp::PRODUCT, ReduceOp::MIN,
                                  ReduceOp::MAX};
  for (int world = 1; world <= 4; ++world) {
    run_ranks(world, [&](ProcessGroupGloo& group, int rank) {
      for (ScalarType dtype : dtypes) {
        for (ReduceOp op : ops) {
          if (op == ReduceOp::AVG && !isFloatingType(dtype)) continue;
          std::vector<Tensor> tensors{rank_input(rank, 7, dtype)};
          AllreduceOptions opts;
          opts.reduceOp = op;
          group.allreduce(tensors, opts)->wait();
          std::vector<double> expected;
          for (int64_t i = 0; i < 7; ++i) expected.push_back(combine(op, world, i));
          EXPECT_EQ(values(tensors[0]), expected) << "world " << world << ", rank " << rank << ", "
                                                  << dtype << ", op " << static_cast<int>(op.op_);
          EXPECT_EQ(tensors[0].scalar_type(), dtype);
        }
      }
    });
  }
}

TEST(ProcessGroupGloo, BitwiseReductionsOfIntegersAndBools) {
  for (int world = 1; world <= 3; ++world) {
    run_ranks(world, [&](ProcessGroupGloo& group, int rank) {
      const auto run = [&](Tensor t, ReduceOp op) {
        std::vector<Tensor> tensors{t};
        AllreduceOptions opts;
        opts.reduceOp = op;
        group.allreduce(tensors, opts)->wait();
        return t;
      };
      const int64_t mine = (int64_t{1} << rank) | 8;  // bit 3 on every rank
      int64_t all_and = ~int64_t{0}, all_or = 0, all_xor = 0;
      for (int r = 0; r < world; ++r) {
        const int64_t v = (int64_t{1} << r) | 8;
        all_and &= v, all_or |= v, all_xor ^= v;
      }
      EXPECT_EQ(run(full({2}, mine, kLong), ReduceOp::BAND).to_vector<int64_t>(),
                std::vector<int64_t>(2, all_and));
      EXPECT_EQ(run(full({2}, mine, kLong), ReduceOp::BOR).to_vector<int64_t>(),
                std::vector<int64_t>(2, all_or));
      EXPECT_EQ(run(full({2}, mine, kLong), ReduceOp::BXOR).to_vector<int64_t>(),
                std::vector<int64_t>(2, all_xor));
      // Bools: rank 0 alone holds true in the first element, every rank in the second.
      Tensor flags = tensor({rank == 0, true});
      EXPECT_EQ(run(flags.clone(), ReduceOp::BAND).to_vector<bool>(),
                (std::vector<bool>{world == 1, true}));
      EXPECT_EQ(run(flags.clone(), ReduceOp::MAX).to_vector<bool>(),
                (std::vector<bool>{true, true}));
    });
  }
}

TEST(ProcessGroupGloo, AllreduceWritesNonContiguousAndEmptyTensorsInPlace) {
  run_ranks(2, [](ProcessGroupGloo& group, int rank) {
    Tensor base = arange(6, kFloat).view({2, 3}) * (rank + 1);
    std::vector<Tensor> tensors{base.t(), empty({0}, kFloat)};
    ASSERT_FALSE(tensors[0].is_contiguous());
    std::vector<Tensor> first{tensors[0]};
    group.allreduce(first)->wait();
    // Both ranks' bases summed: 1x + 2x of 0..5, seen through the transposed view's storage.
    EXPECT_EQ(base.view({-1}).to_vector<float>(), (std::vector<float>{0, 3, 6, 9, 12, 15}));
    std::vector<Tensor> nothing{tensors[1]};
    group.allreduce(nothing)->wait();
    EXPECT_EQ(nothing[0].numel(), 0);
  });
}

TEST(ProcessGroupGloo, AllreduceOfSeveralTensorsReducesThemAll) {
  run_ranks(2, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> tensors{full({3}, 1.0 + rank, kFloat),
                                full({3}, 10.0 * (rank + 1), kFloat)};
    group.allreduce(tensors)->wait();
    // Every tensor of every rank: 1 + 10 + 2 + 20.
    for (const Tensor& t : tensors) EXPECT_EQ(t.to_vector<float>(), std::vector<float>(3, 33.0f));
  });
}

TEST(ProcessGroupGloo, AllreduceCoalescedKeepsEachShape) {
  run_ranks(3, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> tensors{full({2, 2}, rank, kDouble), full({3}, 2.0 * rank, kDouble)};
    group.allreduce_coalesced(tensors)->wait();
    EXPECT_EQ(tensors[0].sizes(), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(values(tensors[0]), std::vector<double>(4, 3.0));  // 0 + 1 + 2
    EXPECT_EQ(values(tensors[1]), std::vector<double>(3, 6.0));
  });
}

TEST(ProcessGroupGloo, BroadcastFromEachRoot) {
  for (int root = 0; root < 3; ++root) {
    run_ranks(3, [root](ProcessGroupGloo& group, int rank) {
      std::vector<Tensor> tensors{full({4}, 100 + rank, kLong).view({2, 2}).t()};
      BroadcastOptions opts;
      opts.rootRank = root;
      group.broadcast(tensors, opts)->wait();
      EXPECT_EQ(tensors[0].contiguous().view({-1}).to_vector<int64_t>(),
                std::vector<int64_t>(4, 100 + root));
    });
  }
}

TEST(ProcessGroupGloo, ReduceLeavesTheResultOnTheRoot) {
  run_ranks(4, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> tensors{full({3}, rank + 1, kFloat)};
    ReduceOptions opts;
    opts.rootRank = 2;
    opts.reduceOp = ReduceOp::MAX;
    group.reduce(tensors, opts)->wait();
    if (rank == 2) {
      EXPECT_EQ(tensors[0].to_vector<float>(), std::vector<float>(3, 4.0f));
    }
  });
}

TEST(ProcessGroupGloo, AllgatherAndGatherInRankOrder) {
  run_ranks(3, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> input{tensor({rank * 10, rank * 10 + 1}, kLong)};
    std::vector<std::vector<Tensor>> outputs{
        {empty({2}, kLong), empty({2}, kLong), empty({2}, kLong)}};
    group.allgather(outputs, input)->wait();
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(outputs[0][static_cast<size_t>(r)].to_vector<int64_t>(),
                (std::vector<int64_t>{r * 10, r * 10 + 1}));
    }

    Tensor flat = empty({3, 2}, kLong);
    group._allgather_base(flat, input[0])->wait();
    EXPECT_EQ(flat.view({-1}).to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 10, 11, 20, 21}));

    std::vector<std::vector<Tensor>> gathered;
    if (rank == 1) gathered = {{empty({2}, kLong), empty({2}, kLong), empty({2}, kLong)}};
    GatherOptions opts;
    opts.rootRank = 1;
    group.gather(gathered, input, opts)->wait();
    if (rank == 1) {
      EXPECT_EQ(gathered[0][2].to_vector<int64_t>(), (std::vector<int64_t>{20, 21}));
      EXPECT_EQ(gathered[0][0].to_vector<int64_t>(), (std::vector<int64_t>{0, 1}));
    }
  });
}

TEST(ProcessGroupGloo, ScatterGivesEachRankItsPiece) {
  run_ranks(3, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> output{empty({2}, kFloat)};
    std::vector<std::vector<Tensor>> inputs;
    if (rank == 0) {
      inputs = {{tensor({0.5f, 1.5f}), tensor({2.5f, 3.5f}), tensor({4.5f, 5.5f})}};
    }
    group.scatter(output, inputs)->wait();
    EXPECT_EQ(output[0].to_vector<float>(), (std::vector<float>{0.5f + 2 * rank, 1.5f + 2 * rank}));
  });
}

TEST(ProcessGroupGloo, ReduceScatterSumsEachRanksPiece) {
  run_ranks(3, [](ProcessGroupGloo& group, int rank) {
    // Rank r sends piece p filled with r + 10 p: piece p sums to 3 + 30 p... (0+1+2) + 3*10p.
    std::vector<std::vector<Tensor>> inputs(1);
    for (int p = 0; p < 3; ++p) inputs[0].push_back(full({2}, rank + 10 * p, kDouble));
    std::vector<Tensor> output{empty({2}, kDouble)};
    group.reduce_scatter(output, inputs)->wait();
    EXPECT_EQ(values(output[0]), std::vector<double>(2, 3.0 + 30 * rank));

    Tensor input = arange(6, kDouble) + rank;  // one row of 2 per rank
    Tensor out = empty({2}, kDouble);
    ReduceScatterOptions opts;
    opts.reduceOp = ReduceOp::AVG;
    group._reduce_scatter_base(out, input, opts)->wait();
    EXPECT_EQ(values(out), (std::vector<double>{2.0 * rank + 1, 2.0 * rank + 2}));
    EXPECT_EQ(values(input)[0], rank);  // the input is left as it was
  });
}

TEST(ProcessGroupGloo, AlltoallWithEqualAndUnevenSplits) {
  run_ranks(2, [](ProcessGroupGloo& group, int rank) {
    // Equal: rank r's rows are [r0, r1]; row j goes to rank j.
    Tensor input = tensor({rank * 10.0f, rank * 10.0f + 1});
    Tensor output = empty({2}, kFloat);
    std::vector<int64_t> none;
    group.alltoall_base(output, input, none, none)->wait();
    EXPECT_EQ(output.to_vector<float>(),
              (std::vector<float>{static_cast<float>(rank), 10.0f + rank}));

    // Uneven: rank 0 sends 1 row to itself and 2 to rank 1; rank 1 sends 3 to rank 0, 0 to itself.
    std::vector<int64_t> in_split =
        rank == 0 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{3, 0};
    std::vector<int64_t> out_split =
        rank == 0 ? std::vector<int64_t>{1, 3} : std::vector<int64_t>{2, 0};
    Tensor rows = (arange(3, kLong) + 100 * rank).view({3, 1});
    Tensor received = empty({rank == 0 ? 4 : 2, 1}, kLong);
    group.alltoall_base(received, rows, out_split, in_split)->wait();
    EXPECT_EQ(received.view({-1}).to_vector<int64_t>(),
              rank == 0 ? (std::vector<int64_t>{0, 100, 101, 102}) : (std::vector<int64_t>{1, 2}));

    std::vector<Tensor> inputs{full({1}, rank * 2, kLong), full({2}, rank * 2 + 1, kLong)};
    std::vector<Tensor> outputs{empty({rank == 0 ? 1 : 2}, kLong),
                                empty({rank == 0 ? 1 : 2}, kLong)};
    group.alltoall(outputs, inputs)->wait();
    EXPECT_EQ(outputs[0].to_vector<int64_t>(), std::vector<int64_t>(rank == 0 ? 1 : 2, rank));
    EXPECT_EQ(outputs[1].to_vector<int64_t>(), std::vector<int64_t>(rank == 0 ? 1 : 2, 2 + rank));
  });
}

TEST(ProcessGroupGloo, SendRecvAndRecvFromAnyRank) {
  run_ranks(3, [](ProcessGroupGloo& group, int rank) {
    if (rank == 0) {
      std::vector<Tensor> a{empty({3}, kFloat)}, b{empty({3}, kFloat)};
      group.recv(a, 2, 7)->wait();
      EXPECT_EQ(a[0].to_vector<float>(), std::vector<float>(3, 2.0f));
      auto work = group.recvAnysource(b, 8);
      work->wait();
      EXPECT_EQ(work->sourceRank(), 1);
      EXPECT_EQ(b[0].to_vector<float>(), std::vector<float>(3, 1.0f));
    } else {
      std::vector<Tensor> t{full({3}, rank, kFloat)};
      group.send(t, 0, rank == 2 ? 7 : 8)->wait();
    }
    group.barrier()->wait();
  });
}

TEST(ProcessGroupGloo, WorkReportsCompletionInIssueOrder) {
  run_ranks(2, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> first{full({1000}, 1.0 + rank, kFloat)};
    std::vector<Tensor> second{full({1}, 1.0, kFloat)};
    auto a = group.allreduce(first);
    auto b = group.allreduce(second);
    EXPECT_TRUE(b->wait());
    // One collective at a time, in order: the first is done once the second is.
    EXPECT_TRUE(a->isCompleted());
    EXPECT_TRUE(a->isSuccess());
    EXPECT_EQ(a->exception(), nullptr);
    EXPECT_EQ(a->retrieveOpType(), OpType::ALLREDUCE);
    EXPECT_EQ(b->result()[0].to_vector<float>(), std::vector<float>{2.0f});
    EXPECT_EQ(first[0][999].item<float>(), 3.0f);
  });
}

// Note [CUDA tensors on Gloo]: two ranks (threads) sharing the GPU. The inputs are made on a side
// stream just before each collective, so a communication stream that did not wait for the
// caller's would read them unfinished.
TEST(ProcessGroupGloo, CudaTensorsGoThroughHostCopiesAfterTheCallersStream) {
  EMBER_SKIP_IF_NO_CUDA();
  run_ranks(2, [](ProcessGroupGloo& group, int rank) {
    const TensorOptions on_gpu = TensorOptions(kFloat).device(Device("cuda:0"));
    const Stream side = get_stream_from_pool(Device("cuda:0"));
    StreamGuard on_side(side);

    std::vector<Tensor> summed{full({1 << 20}, rank + 1.0, on_gpu) * 2};  // 2 and 4
    group.allreduce(summed)->wait();
    EXPECT_TRUE(summed[0].is_cuda());
    EXPECT_EQ(summed[0].min().item<float>(), 6.0f);
    EXPECT_EQ(summed[0].max().item<float>(), 6.0f);

    // A non-contiguous tensor, from rank 1.
    std::vector<Tensor> broadcast{(arange(12, on_gpu).view({3, 4}) * (rank + 1)).t()};
    BroadcastOptions from_one;
    from_one.rootRank = 1;
    group.broadcast(broadcast, from_one)->wait();
    EXPECT_EQ(values(broadcast[0].cpu()), values((arange(12, kFloat).view({3, 4}) * 2).t()));

    std::vector<Tensor> mine{full({2}, rank * 10.0, on_gpu)};
    std::vector<std::vector<Tensor>> gathered{{empty({2}, on_gpu), empty({2}, on_gpu)}};
    group.allgather(gathered, mine)->wait();
    EXPECT_EQ(values(gathered[0][0].cpu()), std::vector<double>(2, 0.0));
    EXPECT_EQ(values(gathered[0][1].cpu()), std::vector<double>(2, 10.0));

    std::vector<Tensor> scattered{empty({2}, on_gpu)};
    std::vector<std::vector<Tensor>> pieces;
    if (rank == 0) pieces = {{empty({2}, on_gpu), empty({2}, on_gpu)}};
    EXPECT_EQ(error_of<NotImplementedError>([&] { group.scatter(scattered, pieces); }),
              "[ProcessGroupGloo.scatter] got a tensor on cuda:0; ember's Gloo backend takes CPU "
              "tensors here (CUDA tensors in broadcast, allreduce, reduce and allgather): move "
              "it with .cpu() and back");
  });
}

TEST(ProcessGroupGloo, WrongArgumentsSayWhatToPass) {
  run_ranks(2, [](ProcessGroupGloo& group, int) {
    std::vector<Tensor> ints{full({2}, 1, kLong)};
    AllreduceOptions avg;
    avg.reduceOp = ReduceOp::AVG;
    EXPECT_EQ(error_of([&] { group.allreduce(ints, avg); }),
              "[ProcessGroupGloo.allreduce] ReduceOp::AVG needs floating tensors, got Long; use "
              "SUM and divide");
    std::vector<Tensor> floats{full({2}, 1.0, kFloat)};
    AllreduceOptions band;
    band.reduceOp = ReduceOp::BAND;
    EXPECT_EQ(error_of([&] { group.allreduce(floats, band); }),
              "[ProcessGroupGloo.allreduce] a bitwise reduction needs integer or bool tensors, "
              "got Float");
    std::vector<Tensor> mixed{full({2}, 1.0, kFloat), full({2}, 1.0, kDouble)};
    EXPECT_EQ(error_of([&] { group.allreduce(mixed); }),
              "[ProcessGroupGloo.allreduce] the tensors differ in dtype (Float[2] and Double[2]); "
              "pass tensors of one dtype");
    BroadcastOptions far;
    far.rootRank = 5;
    EXPECT_EQ(error_of([&] { group.broadcast(floats, far); }),
              "[ProcessGroupGloo.broadcast] root rank 5 is not in the group of size 2");
    Tensor rows = empty({3}, kFloat), out = empty({3}, kFloat);
    std::vector<int64_t> none;
    EXPECT_EQ(error_of([&] { group.alltoall_base(out, rows, none, none); }),
              "[ProcessGroupGloo.alltoall_base] the input Float[3] has 3 rows, which do not split "
              "equally among 2 ranks; pass split sizes");
    std::vector<Tensor> empty_list;
    EXPECT_EQ(error_of([&] { group.allreduce(empty_list); }),
              "[ProcessGroupGloo.allreduce] needs at least one tensor; the list is empty");
    group.barrier()->wait();
  });
}

TEST(ProcessGroupGloo, ACollectiveARankNeverEntersNamesThatRankAndItsLast) {
  std::promise<void> checked;
  std::shared_future<void> done = checked.get_future().share();
  run_ranks(
      2,
      [&](ProcessGroupGloo& group, int rank) {
        std::vector<Tensor> small{full({2}, 1.0, kFloat)};
        group.broadcast(small)->wait();
        if (rank == 1) {
          done.wait();  // alive, but never entering the allreduce
          return;
        }
        std::vector<Tensor> tensors{full({4}, 1.0, kFloat)};
        AllreduceOptions opts;
        opts.timeout = 300ms;
        auto work = group.allreduce(tensors, opts);
        const std::string message = error_of([&] { work->wait(); });
        checked.set_value();
        EXPECT_EQ(message.substr(0, message.find('\n')),
                  "[ProcessGroupGloo] allreduce #1 Float[4] on rank 0 of a group of 2 timed out "
                  "after 300 ms; rank 1 has not entered it (its last: broadcast #0 Float[2])");
        EXPECT_FALSE(work->isSuccess());
        EXPECT_NE(work->exception(), nullptr);
      },
      5s);
}

TEST(ProcessGroupGloo, MismatchedCollectivesFailOnEveryRankUnderDetail) {
  setenv("EMBER_DISTRIBUTED_DEBUG", "DETAIL", 1);
  run_ranks(2, [](ProcessGroupGloo& group, int rank) {
    std::vector<Tensor> tensors{full({rank == 0 ? 4 : 8}, 1.0, kFloat)};
    EXPECT_EQ(error_of([&] { group.allreduce(tensors)->wait(); }),
              "[ProcessGroupGloo] collective #0 differs between the ranks of the group: rank 0 "
              "called allreduce #0 Float[4], rank 1 called allreduce #0 Float[8]; every rank "
              "must issue the same collectives, with the same dtypes and sizes, in the same "
              "order");
    // The group goes on: the next collective agrees.
    std::vector<Tensor> same{full({2}, 1.0, kFloat)};
    group.allreduce(same)->wait();
    EXPECT_EQ(same[0].to_vector<float>(), std::vector<float>(2, 2.0f));
  });
  unsetenv("EMBER_DISTRIBUTED_DEBUG");
}

}  // namespace
}  // namespace ember::distributed
