// Several threads using ember at once on independent tensors: ops large enough to split over
// ember's own CPU threads, allocation churn through the shared caching allocator, random numbers
// from the one generator, and autograd graphs built and run side by side. Each thread's results
// must equal the ones computed alone beforehand, bit for bit (every op here is deterministic for
// a fixed thread count), and grad mode must stay per thread as in PyTorch.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "cpu/parallel.h"
#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 6;

// What one worker computes from its seed value: a matmul through BLAS, an elementwise chain and
// a reduction big enough for parallel_for, and one training step's gradients.
struct Work {
  std::vector<float> product, chain, grads;
  double total = 0;
};

Work compute(int seed) {
  Work w;
  Tensor a = arange(0, 160 * 96, 1, kFloat32).reshape({160, 96}).sin() * float(seed + 1);
  Tensor b = arange(0, 96 * 64, 1, kFloat32).reshape({96, 64}).cos();
  w.product = matmul(a, b).to_vector<float>();
  Tensor big = arange(0, 200000, 1, kFloat32) / 1000.0 + seed;  // over kGrainSize elements
  w.chain = (big.exp().log() * 2.0 - big).relu().to_vector<float>();
  w.total = big.sum().item<double>();

  nn::Sequential net(nn::Linear(96, 32), nn::ReLU(), nn::Linear(32, 10));
  for (Tensor p : net->parameters()) {
    NoGradGuard no_grad;
    p.copy_(ones_like(p) * (0.01 * (seed + 1)));  // deterministic weights, no shared generator
  }
  Tensor target = remainder(arange(0, 160, 1, kInt64), 10);
  nn::functional::cross_entropy(net(a.tanh()), target).backward();
  for (const Tensor& p : net->parameters()) {
    std::vector<float> g = p.grad().to_vector<float>();
    w.grads.insert(w.grads.end(), g.begin(), g.end());
  }
  return w;
}

TEST(Concurrency, IndependentWorkOnSeveralThreadsMatchesSerialResults) {
  std::vector<Work> expected;
  for (int t = 0; t < kThreads; ++t) expected.push_back(compute(t));

  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        Work got = compute(t);
        bool same = got.product == expected[t].product && got.chain == expected[t].chain &&
                    got.grads == expected[t].grads && got.total == expected[t].total;
        if (!same) ++mismatches;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0) << "a thread's results changed when others ran beside it";
}

// The generator hands each call its own range of the random stream (an atomic offset), so
// concurrent draws never repeat one another's numbers.
TEST(Concurrency, ConcurrentRandomDrawsNeverOverlap) {
  manual_seed(7);
  constexpr int kDraws = 50;
  std::vector<std::vector<double>> drawn(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kDraws; ++i) {
        std::vector<double> v = rand({64}, kFloat64).to_vector<double>();
        drawn[t].insert(drawn[t].end(), v.begin(), v.end());
      }
    });
  }
  for (std::thread& th : threads) th.join();
  std::set<double> distinct;
  for (const auto& v : drawn) distinct.insert(v.begin(), v.end());
  EXPECT_EQ(distinct.size(), size_t{kThreads * kDraws * 64});

  // Same seed, same total draws: the union of values is the serial stream's.
  manual_seed(7);
  std::set<double> serial;
  for (int i = 0; i < kThreads * kDraws; ++i)
    for (double v : rand({64}, kFloat64).to_vector<double>()) serial.insert(v);
  EXPECT_EQ(distinct, serial);
}

// NoGradGuard on one thread does not switch autograd off on another (grad mode is thread-local).
// An exception thrown in one thread's share of a parallel_for reaches the caller (an exception
// leaving the OpenMP region would terminate the process), and the other shares still run.
TEST(Concurrency, AnExceptionInAParallelForReachesTheCaller) {
  const int saved_threads = get_num_threads();
  set_num_threads(2);
  std::atomic<int64_t> done{0};
  auto run = [&] {
    cpu::parallel_for(1000, 1, [&](int64_t begin, int64_t end) {
      if (begin == 0) throw ValueError("the first share fails");
      done += end - begin;
    });
  };
  EXPECT_THROW(run(), ValueError);
  EXPECT_EQ(done.load(), get_num_threads() > 1 ? 500 : 0);
  set_num_threads(saved_threads);
}

TEST(Concurrency, GradModeIsPerThread) {
  Tensor w = ones({3}, kFloat32).requires_grad_();
  std::atomic<bool> guard_active{false}, other_done{false};
  bool inside_guard_records = true, other_thread_records = false;
  std::thread guarded([&] {
    NoGradGuard no_grad;
    guard_active = true;
    while (!other_done) std::this_thread::yield();
    inside_guard_records = (w * 2.0).requires_grad();
  });
  std::thread other([&] {
    while (!guard_active) std::this_thread::yield();
    other_thread_records = (w * 2.0).requires_grad();
    other_done = true;
  });
  guarded.join();
  other.join();
  EXPECT_FALSE(inside_guard_records);
  EXPECT_TRUE(other_thread_records);
  EXPECT_TRUE(autograd::is_grad_enabled());
}

}  // namespace
}  // namespace ember::test
