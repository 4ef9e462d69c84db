// StatefulDataLoader: the dataset itself decides what each batch holds (the request is only the
// batch size) and ends the epoch by returning nullopt. All workers share the one dataset, which
// must then be thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "ember/data/dataloader/base.h"

namespace ember::data {

template <typename Dataset>
class StatefulDataLoader : public DataLoaderBase<Dataset, typename Dataset::BatchType::value_type,
                                                 typename Dataset::BatchRequestType> {
 public:
  using super = DataLoaderBase<Dataset, typename Dataset::BatchType::value_type,
                               typename Dataset::BatchRequestType>;
  using typename super::BatchRequestType;

  StatefulDataLoader(Dataset dataset, DataLoaderOptions options)
      : super(std::move(options), std::make_unique<Dataset>(std::move(dataset))) {
    for (size_t w = 0; w < this->options_.workers; ++w)
      this->workers_.emplace_back([this] { this->worker_thread(*this->main_thread_dataset_); });
  }

 private:
  void reset() override {
    this->main_thread_dataset_->reset();
    super::reset();  // last: it queues the first requests
  }

  std::optional<BatchRequestType> get_batch_request() override { return this->options_.batch_size; }
};

}  // namespace ember::data
