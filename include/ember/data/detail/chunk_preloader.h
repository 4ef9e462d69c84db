// detail::ChunkPreloader: the moving parts of a ChunkDataset: its reader and samplers, and each
// epoch's preloader threads and batch buffer. A ChunkDataset holds it behind a unique_ptr, so
// the dataset can be moved (into make_data_loader) while the threads keep pointing here.
//
// Note [Swapping a chunk epoch's buffer]: a stateful loader's workers call get_batch while its
// own thread calls reset() to start the next epoch. So the buffer is swapped under a lock and
// handed out as a shared_ptr: a get_batch still waiting on the old buffer wakes when it is
// closed, returns what it held (which the loader drops), and frees it.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "ember/data/datasets/chunk_options.h"
#include "ember/data/detail/batch_data_buffer.h"

namespace ember::data::detail {

template <typename ChunkReader, typename ChunkSampler, typename ExampleSampler>
class ChunkPreloader {
 public:
  using Chunk = typename ChunkReader::BatchType;
  using Buffer = BatchDataBuffer<Chunk, ExampleSampler>;
  using PreprocessingPolicy = std::function<void(Chunk&)>;

  ChunkPreloader(ChunkReader chunk_reader, ChunkSampler chunk_sampler,
                 ExampleSampler example_sampler, datasets::ChunkDatasetOptions options,
                 PreprocessingPolicy preprocessing_policy)
      : chunk_reader_(std::move(chunk_reader)),
        chunk_sampler_(std::move(chunk_sampler)),
        example_sampler_(std::move(example_sampler)),
        options_(std::move(options)),
        preprocessing_policy_(std::move(preprocessing_policy)) {}
  ChunkPreloader(const ChunkPreloader&) = delete;
  ChunkPreloader& operator=(const ChunkPreloader&) = delete;
  ~ChunkPreloader() { stop(); }

  // Abandons the current epoch, if any, and starts the preloaders on a new one.
  void start_epoch() {
    stop();
    chunk_reader_.reset();
    chunk_sampler_.reset(chunk_reader_.chunk_count());
    auto buffer =
        std::make_shared<Buffer>(options_.batch_size(), example_sampler_, options_.cache_size());
    {
      std::lock_guard<std::mutex> lock(buffer_mutex_);
      buffer_ = buffer;
    }
    running_preloaders_ = options_.preloader_count();
    for (size_t p = 0; p < options_.preloader_count(); ++p)
      preloaders_.emplace_back([this, buffer] { preload(*buffer); });
  }

  // This epoch's buffer; nullptr before the first.
  std::shared_ptr<Buffer> buffer() {
    std::lock_guard<std::mutex> lock(buffer_mutex_);
    return buffer_;
  }

  ChunkSampler& chunk_sampler() noexcept { return chunk_sampler_; }
  const datasets::ChunkDatasetOptions& options() const noexcept { return options_; }

 private:
  // One preloader thread: chunk after chunk into `buffer`, until the chunk sampler has no more
  // or the epoch is abandoned. An exception goes to the buffer, and the next chunk is read.
  void preload(Buffer& buffer) {
    while (!buffer.closed()) {
      // Handed over after the handler, which then holds no reference to the exception: the
      // thread that takes it out of the buffer holds the last one and frees it.
      std::exception_ptr failure;
      try {
        auto chunk_indices = next_chunk_indices();
        if (!chunk_indices) break;
        Chunk chunk = read_chunks(*chunk_indices);
        if (preprocessing_policy_) preprocessing_policy_(chunk);
        if (!buffer.add_chunk(std::move(chunk))) break;
      } catch (...) {
        failure = std::current_exception();
      }
      if (failure) buffer.add_exception(std::move(failure));
    }
    if (--running_preloaders_ == 0) buffer.close();  // the last one out ends the epoch
  }

  auto next_chunk_indices() {
    std::lock_guard<std::mutex> lock(chunk_sampler_mutex_);
    return chunk_sampler_.next(options_.cross_chunk_shuffle_count());
  }

  // The chunks at `indices` as one, so that the example sampler shuffles across them.
  Chunk read_chunks(const std::vector<size_t>& indices) {
    Chunk chunk = chunk_reader_.read_chunk(indices.at(0));
    for (size_t i = 1; i < indices.size(); ++i) {
      Chunk next = chunk_reader_.read_chunk(indices[i]);
      std::move(next.begin(), next.end(), std::back_inserter(chunk));
    }
    return chunk;
  }

  void stop() {
    if (std::shared_ptr<Buffer> current = buffer()) current->close();
    for (std::thread& preloader : preloaders_) preloader.join();
    preloaders_.clear();
  }

  ChunkReader chunk_reader_;
  ChunkSampler chunk_sampler_;
  std::mutex chunk_sampler_mutex_;  // the preloaders take turns at chunk_sampler_.next
  ExampleSampler example_sampler_;  // the buffer's lock guards it
  const datasets::ChunkDatasetOptions options_;
  const PreprocessingPolicy preprocessing_policy_;

  std::mutex buffer_mutex_;  // Note [Swapping a chunk epoch's buffer]
  std::shared_ptr<Buffer> buffer_;
  std::vector<std::thread> preloaders_;
  std::atomic<size_t> running_preloaders_ = 0;
};

}  // namespace ember::data::detail
