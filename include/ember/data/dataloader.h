// data::DataLoader: batches of a TensorDataset, optionally shuffled (reproducibly) and moved to
// the model's device as they are produced. `for (const auto& batch : loader)` (or `auto`) gives
// {inputs, targets}; each batch is made as the loop reaches it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ember/data/dataset.h"
#include "ember/device.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::data {

struct DataLoaderOptions {
  int64_t batch_size = 1;
  bool shuffle = false;
  bool drop_last = false;  // drop a last batch smaller than batch_size
  // Where batches are delivered; a GPU gets them with non_blocking copies.
  Device device = Device::cpu();
  // As PyTorch's DataLoader: each batch is gathered, then copied into pinned (page-locked) memory,
  // from which the copy to a GPU device runs asynchronously; with a CPU device the batches stay
  // there, pinned. Without a usable GPU it is ignored (PyTorch warns, then ignores it too).
  bool pin_memory = false;
  // The shuffling seed; without one each epoch's order is drawn from ember's generator, so
  // manual_seed makes it reproducible (as torch.manual_seed does for PyTorch's DataLoader).
  std::optional<uint64_t> seed = std::nullopt;
};

using Batch = std::vector<Tensor>;

class EMBER_API DataLoader {
 public:
  DataLoader(TensorDataset dataset, DataLoaderOptions options);

  class EMBER_API Iterator {
   public:
    Iterator(const DataLoader* loader, int64_t batch) : loader_(loader), batch_(batch) {}
    Batch operator*() const { return loader_->batch(order_, batch_); }
    Iterator& operator++() {
      ++batch_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return batch_ == other.batch_; }

   private:
    friend class DataLoader;
    const DataLoader* loader_;
    int64_t batch_;
    Tensor order_;  // this epoch's sample order (int64, on the dataset's device)
  };

  // A new epoch: a new order when shuffling.
  Iterator begin() const;
  Iterator end() const { return Iterator(this, num_batches()); }
  int64_t num_batches() const;
  const TensorDataset& dataset() const { return dataset_; }
  const DataLoaderOptions& options() const { return options_; }

 private:
  Batch batch(const Tensor& order, int64_t index) const;

  TensorDataset dataset_;
  DataLoaderOptions options_;
  mutable uint64_t epoch_ = 0;
};

}  // namespace ember::data
