// datasets::ChunkDataReader: what a ChunkDataset reads its examples through. A chunk is a unit
// worth reading whole (a file, a slice of a large file between two seek positions); the dataset
// asks for chunks by index, from several preloader threads at once when it has several, so
// read_chunk must then be thread-safe.
#pragma once

#include <cstddef>
#include <vector>

namespace ember::data::datasets {

template <typename Example, typename Chunk = std::vector<Example>>
class ChunkDataReader {
 public:
  using ChunkType = Chunk;
  using ExampleType = Example;
  // What ChunkDataset calls a reader's chunk. LibTorch's reader leaves it to each subclass
  // (`using BatchType = ChunkType;`), which still compiles here: the subclass's hides this one.
  using BatchType = Chunk;

  virtual ~ChunkDataReader() = default;

  virtual ChunkType read_chunk(size_t chunk_index) = 0;
  virtual size_t chunk_count() = 0;
  // Forgets any state of the last epoch (an open file, a position); called before each epoch.
  virtual void reset() = 0;
};

}  // namespace ember::data::datasets
