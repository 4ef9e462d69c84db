// datasets::ChunkDataset: a stateful dataset over data too large to index example by example,
// read a chunk at a time (LibTorch's torch/data/datasets/chunk.h). Sampling is hierarchical:
// the chunk sampler picks which chunks to read, the example sampler orders each chunk's
// examples; preloader_count threads read ahead into a buffer of at most about cache_size
// examples, and get_batch takes batch_size of them at a time. reset() starts an epoch (the
// loader's begin() calls it); size() is unknown. A preloader's exception is thrown by get_batch.
//
// Unlike LibTorch's, the dataset can be moved, so make_data_loader(std::move(dataset), ...)
// works as well as LibTorch's make_shared_dataset<ChunkDataset<...>>(...). LibTorch's save and
// load of the chunk sampler are not here yet (issue 24).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "ember/data/datasets/chunk_options.h"
#include "ember/data/datasets/chunk_reader.h"
#include "ember/data/datasets/stateful.h"
#include "ember/data/detail/chunk_preloader.h"
#include "ember/data/samplers/random.h"
#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::data::datasets {

template <typename ChunkReader, typename ChunkSampler = samplers::RandomSampler,
          typename ExampleSampler = samplers::RandomSampler>
class ChunkDataset final
    : public StatefulDataset<ChunkDataset<ChunkReader, ChunkSampler, ExampleSampler>,
                             typename ChunkReader::BatchType, size_t> {
 public:
  using BatchType = std::optional<typename ChunkReader::BatchType>;
  using UnwrappedBatchType = typename ChunkReader::BatchType;
  using BatchRequestType = size_t;
  using ChunkSamplerType = ChunkSampler;
  using ExampleSamplerType = ExampleSampler;
  using Preloader = data::detail::ChunkPreloader<ChunkReader, ChunkSampler, ExampleSampler>;

  // `preprocessing_policy`, when given, sees each chunk (cross_chunk_shuffle_count chunks
  // merged) before the example sampler orders it: to sort it into buckets, say.
  ChunkDataset(ChunkReader chunk_reader, ChunkSampler chunk_sampler, ExampleSampler example_sampler,
               ChunkDatasetOptions options,
               typename Preloader::PreprocessingPolicy preprocessing_policy = {})
      : preloader_(std::make_unique<Preloader>(std::move(chunk_reader), std::move(chunk_sampler),
                                               std::move(example_sampler), std::move(options),
                                               std::move(preprocessing_policy))) {}

  BatchType get_batch(size_t batch_size) override {
    auto buffer = preloader_->buffer();
    if (!buffer) throw Error("Dataset needs to call reset() before calling get_batch().");
    const size_t expected = preloader_->options().batch_size();
    if (batch_size != expected)
      throw Error(
          str("The requested batch size does not match with the initialized batch size.\n The "
              "requested batch size is ",
              batch_size, ", while the dataset is created with batch size equal to ", expected));
    return buffer->get_batch();
  }
  BatchType get_batch() { return get_batch(preloader_->options().batch_size()); }

  // A new epoch, also when the last one was not read to its end.
  void reset() override { preloader_->start_epoch(); }

  std::optional<size_t> size() const override { return std::nullopt; }

  // To set a distributed chunk sampler's epoch, say. Not to be touched while an epoch runs.
  ChunkSamplerType& chunk_sampler() { return preloader_->chunk_sampler(); }

 private:
  std::unique_ptr<Preloader> preloader_;
};

}  // namespace ember::data::datasets
