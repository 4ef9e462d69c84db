// make_data_loader: the batches of an epoch, drop_last, LibTorch's iterator rules (sentinel
// end, errors past the end, one iterator at a time), worker threads giving the same batches in
// order, a worker's exception in the loop, the timeout, and a stateful dataset's loader.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ember/data.h"
#include "test_util.h"

namespace ember {
namespace {

using data::DataLoaderOptions;
using data::Example;
using test::error_of;
using test::expect_values;
namespace datasets = data::datasets;
namespace samplers = data::samplers;
namespace transforms = data::transforms;

// Sample i: data [i] (float), target 10 * i.
struct Numbers : datasets::Dataset<Numbers> {
  explicit Numbers(size_t n) : n(n) {}
  Example<> get(size_t index) override {
    const auto i = static_cast<int64_t>(index);
    return {full({1}, static_cast<double>(i)), tensor(10 * i)};
  }
  std::optional<size_t> size() const override { return n; }
  size_t n;
};

// The targets of every batch of one epoch.
template <class Loader>
std::vector<std::vector<int64_t>> targets_of(Loader& loader) {
  std::vector<std::vector<int64_t>> batches;
  for (Example<>& batch : loader) batches.push_back(batch.target.to_vector<int64_t>());
  return batches;
}

TEST(DataLoader, SequentialBatchesOfExamplesAndDropLast) {
  auto loader = data::make_data_loader<samplers::SequentialSampler>(Numbers(5), 2);
  std::vector<size_t> sizes;
  std::vector<int64_t> targets;
  for (std::vector<Example<>>& batch : *loader) {
    sizes.push_back(batch.size());
    for (Example<>& e : batch) targets.push_back(e.target.item<int64_t>());
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{2, 2, 1}));
  EXPECT_EQ(targets, (std::vector<int64_t>{0, 10, 20, 30, 40}));

  auto dropping = data::make_data_loader<samplers::SequentialSampler>(
      Numbers(5).map(transforms::Stack<>()), DataLoaderOptions(2).drop_last(true));
  EXPECT_EQ(targets_of(*dropping), (std::vector<std::vector<int64_t>>{{0, 10}, {20, 30}}));
  EXPECT_EQ(dropping->options().batch_size, 2u);
  EXPECT_EQ(dropping->options().max_jobs, 0u);  // 2 * workers
}

TEST(DataLoader, StackedBatchesHaveTheBatchDimensionFirst) {
  auto loader = data::make_data_loader(Numbers(5).map(transforms::Stack<>()),
                                       samplers::SequentialSampler(5), DataLoaderOptions(3));
  auto it = loader->begin();
  expect_values<float>(it->data, {3, 1}, {0, 1, 2});
  expect_values<int64_t>(it->target, {3}, {0, 10, 20});
  ++it;
  expect_values<float>((*it).data, {2, 1}, {3, 4});
  ++it;
  EXPECT_TRUE(it == loader->end());
}

TEST(DataLoader, RandomSamplerByDefaultFollowsManualSeed) {
  auto stacked = Numbers(7).map(transforms::Stack<>());
  manual_seed(3);
  auto loader = data::make_data_loader(stacked, 3);
  const auto first = targets_of(*loader);
  ASSERT_EQ(first.size(), 3u);
  std::vector<int64_t> all;
  for (const auto& b : first) all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<int64_t>{0, 10, 20, 30, 40, 50, 60}));
  manual_seed(3);
  auto replay = data::make_data_loader(stacked, 3);
  EXPECT_EQ(targets_of(*replay), first);
}

TEST(DataLoader, IteratorsFollowLibTorchsRules) {
  auto loader =
      data::make_data_loader<samplers::SequentialSampler>(Numbers(2).map(transforms::Stack<>()), 2);
  auto end = loader->end();
  EXPECT_TRUE(end == loader->end());  // sentinels are equal
  EXPECT_EQ(error_of([&] { *end; }),
            "Dereferencing the DataLoader's past-the-end iterator is not allowed");
  EXPECT_EQ(error_of([&] { ++end; }),
            "Incrementing the DataLoader's past-the-end iterator is not allowed");
  auto it = loader->begin();
  auto copy = it;
  EXPECT_TRUE(it == copy);
  EXPECT_FALSE(it == end);
  ++it;
  EXPECT_TRUE(it == end);
  EXPECT_TRUE(copy == end);  // copies share their position
  EXPECT_EQ(error_of([&] { ++it; }), "Attempted to increment iterator past the end");
  EXPECT_EQ(error_of([&] { *it; }), "Attempted to dereference iterator that was past the end");
}

// The first batch is slow: with two workers the other one finishes the next three (max_jobs is
// 4) before it, and the ordered sequencer must hold them back.
struct SlowStart : datasets::BatchDataset<SlowStart, Example<>> {
  explicit SlowStart(size_t n = 12) : n(n) {}
  Example<> get_batch(ArrayRef<size_t> indices) override {
    if (indices[0] == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::vector<int64_t> rows(indices.begin(), indices.end());
    const Tensor index = tensor(rows);
    return {index.to(kFloat32), index * 10};
  }
  std::optional<size_t> size() const override { return n; }
  size_t n;
};

// Three batches, the first slow: when the loop receives it the sequencer already holds the other
// two, so no job is left with the workers, yet the iterator is not exhausted.
TEST(DataLoader, OneIteratorInFlightWithWorkers) {
  auto loader = data::make_data_loader<samplers::SequentialSampler>(
      SlowStart(6), DataLoaderOptions(2).workers(2));
  auto it = loader->begin();
  ASSERT_FALSE(it == loader->end());
  EXPECT_EQ(error_of([&] { loader->begin(); }),
            "Attempted to get a new DataLoader iterator while another iterator is not yet "
            "exhausted");
  while (it != loader->end()) ++it;
  EXPECT_EQ(targets_of(*loader).size(), 3u);  // exhausted: a new epoch may start
}

TEST(DataLoader, WorkersGiveTheSameBatchesInOrder) {
  auto serial = data::make_data_loader<samplers::SequentialSampler>(SlowStart(), 2);
  const auto want = targets_of(*serial);
  ASSERT_EQ(want.size(), 6u);
  auto parallel = data::make_data_loader<samplers::SequentialSampler>(
      SlowStart(), DataLoaderOptions(2).workers(2));
  EXPECT_EQ(targets_of(*parallel), want);
  EXPECT_EQ(targets_of(*parallel), want);  // and again, next epoch
  EXPECT_EQ(parallel->options().max_jobs, 4u);

  auto unordered = data::make_data_loader<samplers::SequentialSampler>(
      SlowStart(), DataLoaderOptions(2).workers(2).enforce_ordering(false));
  auto got = targets_of(*unordered);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);  // every batch, in the order they were ready
}

struct Failing : datasets::Dataset<Failing> {
  Example<> get(size_t index) override {
    if (index == 3) throw std::runtime_error("sample 3 is corrupt");
    return {zeros({1}), zeros({})};
  }
  std::optional<size_t> size() const override { return 4; }
};

TEST(DataLoader, AWorkersExceptionIsThrownInTheLoop) {
  auto loader = data::make_data_loader<samplers::SequentialSampler>(
      Failing(), DataLoaderOptions(2).workers(2));
  size_t batches = 0;
  try {
    for (auto& batch : *loader) batches += batch.size() > 0;
    FAIL() << "no exception";
  } catch (const data::WorkerException& e) {
    EXPECT_STREQ(e.what(),
                 "Caught exception in DataLoader worker thread. Original message: sample 3 is "
                 "corrupt");
    EXPECT_THROW(std::rethrow_exception(e.original_exception), std::runtime_error);
  }
  EXPECT_EQ(batches, 1u);
  // Without workers the loop's thread meets the exception itself.
  auto serial = data::make_data_loader<samplers::SequentialSampler>(Failing(), 4);
  EXPECT_THROW(for (auto& batch : *serial)(void) batch, std::runtime_error);
}

struct Stuck : datasets::BatchDataset<Stuck, Example<>> {
  Example<> get_batch(ArrayRef<size_t>) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return {};
  }
  std::optional<size_t> size() const override { return 1; }
};

TEST(DataLoader, TimeoutWhileWaitingForAWorker) {
  auto loader = data::make_data_loader<samplers::SequentialSampler>(
      Stuck(), DataLoaderOptions(1).workers(1).timeout(std::chrono::milliseconds(10)));
  EXPECT_EQ(error_of([&] { (void)(loader->begin() == loader->end()); }),
            "Timeout in DataLoader queue while waiting for next batch (timeout was 10 ms)");
}

TEST(DataLoader, UnsizedDatasetNeedsASampler) {
  struct Unsized : datasets::Dataset<Unsized> {
    Example<> get(size_t) override { return {}; }
    std::optional<size_t> size() const override { return std::nullopt; }
  };
  EXPECT_EQ(error_of([] { data::make_data_loader(Unsized()); }),
            "Expected the dataset to be sized in order to construct the Sampler");
}

// A stateful counter: batches of consecutive numbers until `limit`, shared by the workers.
struct Counter : datasets::StatefulDataset<Counter, std::vector<int64_t>> {
  explicit Counter(int64_t limit) : limit(limit) {}
  Counter(const Counter& other) : limit(other.limit) {}
  std::optional<std::vector<int64_t>> get_batch(size_t batch_size) override {
    std::vector<int64_t> batch;
    for (size_t i = 0; i < batch_size; ++i) {
      const int64_t value = next++;
      if (value >= limit) break;
      batch.push_back(value);
    }
    if (batch.empty()) return std::nullopt;
    return batch;
  }
  std::optional<size_t> size() const override { return std::nullopt; }
  void reset() override { next = 0; }
  int64_t limit;
  std::atomic<int64_t> next{0};
};

TEST(DataLoader, StatefulDatasetEndsTheEpochItself) {
  auto loader = data::make_data_loader(Counter(5), DataLoaderOptions(2));
  std::vector<std::vector<int64_t>> batches;
  for (std::vector<int64_t>& batch : *loader) batches.push_back(batch);
  EXPECT_EQ(batches, (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}, {4}}));
  batches.clear();
  for (std::vector<int64_t>& batch : *loader) batches.push_back(batch);  // reset() rewinds
  EXPECT_EQ(batches.size(), 3u);

  auto threaded = data::make_data_loader(Counter(7), DataLoaderOptions(1).workers(2));
  std::vector<int64_t> seen;
  for (std::vector<int64_t>& batch : *threaded) seen.insert(seen.end(), batch.begin(), batch.end());
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace ember
