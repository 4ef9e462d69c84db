// datasets::ChunkDatasetOptions: how a ChunkDataset preloads, as LibTorch's builder:
// ChunkDatasetOptions(preloader_count, batch_size).cache_size(4096). The constructor checks
// the settings it is given with LibTorch's messages (the setters, as LibTorch's, do not).
#pragma once

#include <cstddef>

#include "ember/arg.h"
#include "ember/macros.h"

namespace ember::data::datasets {

struct EMBER_API ChunkDatasetOptions {
  ChunkDatasetOptions() = delete;
  ChunkDatasetOptions(size_t preloader_count, size_t batch_size, size_t cache_size = 2048,
                      size_t cross_chunk_shuffle_count = 1);

  // Threads reading chunks ahead of get_batch.
  EMBER_ARG(size_t, preloader_count);
  // Examples per batch; get_batch must ask for exactly this many.
  EMBER_ARG(size_t, batch_size);
  // How many examples the preloaders may hold ready before they wait for get_batch.
  EMBER_ARG(size_t, cache_size) = 2048;
  // How many chunks are read together and shuffled as one (1: each chunk on its own).
  EMBER_ARG(size_t, cross_chunk_shuffle_count) = 1;
};

}  // namespace ember::data::datasets
