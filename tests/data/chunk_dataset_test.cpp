// ChunkDataset: the batches of a reader of three chunks {0 1 2} {3 4} {5 6 7 8} in a known order
// (sequential samplers, one preloader), across chunk boundaries, cross-chunk shuffling and a
// preprocessing policy; every example exactly once per epoch with several preloaders; reset()
// mid-epoch; a reader's exception in the caller; a small cache; the options' checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
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
using test::error_of;
namespace datasets = data::datasets;
namespace samplers = data::samplers;
using Batches = std::vector<std::vector<int>>;

// Chunk 0 is {0 1 2}, chunk 1 {3 4}, chunk 2 {5 6 7 8}; reading `failing_chunk` throws.
struct ThreeChunks : datasets::ChunkDataReader<int> {
  std::vector<int> read_chunk(size_t chunk_index) override {
    ++*reads;
    if (chunk_index == failing_chunk) throw std::runtime_error("chunk 1 is unreadable");
    const std::vector<std::vector<int>> chunks = {{0, 1, 2}, {3, 4}, {5, 6, 7, 8}};
    return chunks.at(chunk_index);
  }
  size_t chunk_count() override { return 3; }
  void reset() override {}

  std::optional<size_t> failing_chunk;
  std::shared_ptr<std::atomic<int>> reads = std::make_shared<std::atomic<int>>(0);
};

using SequentialChunks =
    datasets::ChunkDataset<ThreeChunks, samplers::SequentialSampler, samplers::SequentialSampler>;

SequentialChunks sequential(datasets::ChunkDatasetOptions options, ThreeChunks reader = {}) {
  return {std::move(reader), samplers::SequentialSampler(0), samplers::SequentialSampler(0),
          std::move(options)};
}

// The rest of the epoch, batch after batch.
template <typename Dataset>
Batches drain(Dataset& dataset) {
  Batches batches;
  while (auto batch = dataset.get_batch()) batches.push_back(*batch);
  return batches;
}

const Batches kInOrder = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8}};

TEST(ChunkDataset, SequentialSamplersGiveTheChunksInOrderAcrossTheirBoundaries) {
  SequentialChunks dataset = sequential({1, 2});
  dataset.reset();
  EXPECT_EQ(drain(dataset), kInOrder);
  EXPECT_EQ(dataset.get_batch(), std::nullopt);  // the epoch stays over until reset()
  EXPECT_EQ(dataset.size(), std::nullopt);
  EXPECT_EQ(dataset.chunk_sampler().index(), 3u);
}

TEST(ChunkDataset, MovedIntoAStatefulLoaderEveryEpochIsTheSame) {
  auto loader = data::make_data_loader(sequential({1, 2}), DataLoaderOptions(2));
  for (int epoch = 0; epoch < 2; ++epoch) {
    Batches batches;
    for (std::vector<int>& batch : *loader) batches.push_back(batch);
    EXPECT_EQ(batches, kInOrder) << "epoch " << epoch;
  }
}

TEST(ChunkDataset, SharedAsInLibTorchWithLoaderWorkers) {
  auto dataset = datasets::make_shared_dataset<SequentialChunks>(
      ThreeChunks(), samplers::SequentialSampler(0), samplers::SequentialSampler(0),
      datasets::ChunkDatasetOptions(1, 3));
  auto loader = data::make_data_loader(dataset, DataLoaderOptions(3).workers(2));
  Batches batches;
  for (std::vector<int>& batch : *loader) batches.push_back(batch);
  std::sort(batches.begin(), batches.end());  // two workers: in either order
  EXPECT_EQ(batches, (Batches{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}));
}

TEST(ChunkDataset, CrossChunkShuffleMergesChunksBeforeThePolicyAndTheExampleSampler) {
  SequentialChunks dataset(
      ThreeChunks(), samplers::SequentialSampler(0), samplers::SequentialSampler(0),
      datasets::ChunkDatasetOptions(1, 2).cross_chunk_shuffle_count(2),
      [](std::vector<int>& chunk) { std::reverse(chunk.begin(), chunk.end()); });
  dataset.reset();
  // Chunks 0 and 1 reversed as one, then chunk 2 reversed.
  EXPECT_EQ(drain(dataset), (Batches{{4, 3}, {2, 1}, {0, 8}, {7, 6}, {5}}));
}

TEST(ChunkDataset, SeveralPreloadersGiveEveryExampleOncePerEpoch) {
  manual_seed(0);
  datasets::ChunkDataset<ThreeChunks> dataset(
      ThreeChunks(), samplers::RandomSampler(0), samplers::RandomSampler(0),
      datasets::ChunkDatasetOptions(3, 2, /*cache_size=*/2));
  for (int epoch = 0; epoch < 3; ++epoch) {
    dataset.reset();
    std::vector<int> seen;
    Batches batches = drain(dataset);
    for (const std::vector<int>& batch : batches)
      seen.insert(seen.end(), batch.begin(), batch.end());
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8})) << "epoch " << epoch;
    // Note [The chunk buffer's open batch]: only the last batch is short.
    ASSERT_EQ(batches.size(), 5u);
    for (size_t b = 0; b < 4; ++b) EXPECT_EQ(batches[b].size(), 2u) << "batch " << b;
  }
}

TEST(ChunkDataset, ResetMidEpochStartsOver) {
  SequentialChunks dataset = sequential({1, 2});
  dataset.reset();
  EXPECT_EQ(dataset.get_batch(), (std::vector<int>{0, 1}));
  dataset.reset();
  EXPECT_EQ(drain(dataset), kInOrder);
}

TEST(ChunkDataset, ASmallCacheHoldsThePreloaderBack) {
  ThreeChunks reader;
  std::shared_ptr<std::atomic<int>> reads = reader.reads;
  SequentialChunks dataset = sequential({1, 2, /*cache_size=*/2}, reader);
  dataset.reset();
  // Chunk 0 fills the cache (3 examples >= 2): chunk 1 is read, but waits to be added.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LE(reads->load(), 2);
  EXPECT_EQ(drain(dataset), kInOrder);
  EXPECT_EQ(reads->load(), 3);
}

TEST(ChunkDataset, AReadersExceptionReachesGetBatchBetweenTheBatches) {
  ThreeChunks reader;
  reader.failing_chunk = 1;
  SequentialChunks dataset = sequential({1, 2}, reader);
  dataset.reset();
  EXPECT_EQ(dataset.get_batch(), (std::vector<int>{0, 1}));
  EXPECT_EQ(error_of<data::WorkerException>([&] { dataset.get_batch(); }),
            "Caught exception in DataLoader worker thread. Original message: chunk 1 is "
            "unreadable");
  // The preloader went on with chunk 2; chunk 1's examples are missing.
  EXPECT_EQ(drain(dataset), (Batches{{2, 5}, {6, 7}, {8}}));
}

TEST(ChunkDataset, AReadersExceptionReachesTheLoaderLoop) {
  ThreeChunks reader;
  reader.failing_chunk = 1;
  auto loader = data::make_data_loader(sequential({1, 2}, reader), DataLoaderOptions(2));
  std::vector<int> seen;
  auto loop = [&] {
    for (std::vector<int>& batch : *loader) seen.insert(seen.end(), batch.begin(), batch.end());
  };
  EXPECT_EQ(error_of<data::WorkerException>(loop),
            "Caught exception in DataLoader worker thread. Original message: chunk 1 is "
            "unreadable");
  EXPECT_EQ(seen, (std::vector<int>{0, 1}));
}

TEST(ChunkDataset, GetBatchChecksTheEpochAndTheBatchSize) {
  SequentialChunks dataset = sequential({1, 2});
  EXPECT_EQ(error_of([&] { dataset.get_batch(); }),
            "Dataset needs to call reset() before calling get_batch().");
  dataset.reset();
  EXPECT_EQ(error_of([&] { dataset.get_batch(3); }),
            "The requested batch size does not match with the initialized batch size.\n The "
            "requested batch size is 3, while the dataset is created with batch size equal to 2");
}

TEST(ChunkDatasetOptions, ChecksAsLibTorch) {
  using Options = datasets::ChunkDatasetOptions;
  EXPECT_EQ(error_of([] { Options(0, 1); }),
            "Preloader count is 0. At least one preloader needs to be specified.");
  EXPECT_EQ(error_of([] { Options(1, 0); }),
            "Batch size is 0. A positive batch size needs to be specified.");
  EXPECT_EQ(error_of([] { Options(1, 1, 0); }),
            "Cache size is 0. A positive cache size needs to be specified.");
  EXPECT_EQ(error_of([] { Options(1, 4, 3); }),
            "Cache size is less than batch size. Cache needs to be large enough to hold at least "
            "one batch.");
  EXPECT_EQ(error_of([] { Options(1, 1, 1, 0); }),
            "cross_chunk_shuffle_count needs to be greater than 0.");
  const Options options = Options(2, 8).cache_size(64);
  EXPECT_EQ(options.preloader_count(), 2u);
  EXPECT_EQ(options.batch_size(), 8u);
  EXPECT_EQ(options.cache_size(), 64u);
  EXPECT_EQ(options.cross_chunk_shuffle_count(), 1u);
}

}  // namespace
}  // namespace ember
