// datasets::StatefulDataset: a dataset that keeps its own position (a stream, a file being read)
// and decides what each batch holds; get_batch returns nullopt when the epoch is over, and
// reset() starts the next. Its loader asks only for a batch size (make_data_loader).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "ember/data/datasets/base.h"

namespace ember::data::datasets {

template <typename Self, typename Batch = std::vector<Example<>>, typename BatchRequest = size_t>
class StatefulDataset : public BatchDataset<Self, std::optional<Batch>, BatchRequest> {
 public:
  virtual void reset() = 0;
};

}  // namespace ember::data::datasets
