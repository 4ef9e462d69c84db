// ChunkDatasetOptions: the constructor's checks, with LibTorch's messages.
#include "core/check.h"
#include "ember/data/datasets/chunk_options.h"

namespace ember::data::datasets {

ChunkDatasetOptions::ChunkDatasetOptions(size_t preloader_count, size_t batch_size,
                                         size_t cache_size, size_t cross_chunk_shuffle_count)
    : preloader_count_(preloader_count),
      batch_size_(batch_size),
      cache_size_(cache_size),
      cross_chunk_shuffle_count_(cross_chunk_shuffle_count) {
  EMBER_CHECK(preloader_count > 0,
              "Preloader count is 0. At least one preloader needs to be specified.");
  EMBER_CHECK(batch_size > 0, "Batch size is 0. A positive batch size needs to be specified.");
  EMBER_CHECK(cache_size > 0, "Cache size is 0. A positive cache size needs to be specified.");
  EMBER_CHECK(cache_size >= batch_size,
              "Cache size is less than batch size. Cache needs to be large enough to hold at "
              "least one batch.");
  EMBER_CHECK(cross_chunk_shuffle_count > 0,
              "cross_chunk_shuffle_count needs to be greater than 0.");
}

}  // namespace ember::data::datasets
