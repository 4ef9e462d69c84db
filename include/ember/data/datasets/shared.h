// datasets::SharedBatchDataset: a dataset behind a shared_ptr, so that a loader's workers (which
// copy the dataset they are given) all read one instance; that instance must then be
// thread-safe. make_shared_dataset<D>(args...) builds one as std::make_shared does.
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "ember/data/datasets/base.h"

namespace ember::data::datasets {

template <typename UnderlyingDataset>
class SharedBatchDataset : public BatchDataset<SharedBatchDataset<UnderlyingDataset>,
                                               typename UnderlyingDataset::BatchType,
                                               typename UnderlyingDataset::BatchRequestType> {
 public:
  using BatchType = typename UnderlyingDataset::BatchType;
  using BatchRequestType = typename UnderlyingDataset::BatchRequestType;

  SharedBatchDataset(std::shared_ptr<UnderlyingDataset> shared_dataset)  // NOLINT: implicit
      : dataset_(std::move(shared_dataset)) {}

  BatchType get_batch(BatchRequestType request) override {
    return dataset_->get_batch(std::move(request));
  }
  std::optional<size_t> size() const override { return dataset_->size(); }

  UnderlyingDataset& operator*() { return *dataset_; }
  const UnderlyingDataset& operator*() const { return *dataset_; }
  UnderlyingDataset* operator->() { return dataset_.get(); }
  const UnderlyingDataset* operator->() const { return dataset_.get(); }
  // Only a stateful dataset has reset() to call.
  void reset() { dataset_->reset(); }

 private:
  std::shared_ptr<UnderlyingDataset> dataset_;
};

template <typename UnderlyingDataset, typename... Args>
SharedBatchDataset<UnderlyingDataset> make_shared_dataset(Args&&... args) {
  return std::make_shared<UnderlyingDataset>(std::forward<Args>(args)...);
}

}  // namespace ember::data::datasets
