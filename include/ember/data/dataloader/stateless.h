// StatelessDataLoader: a sampler decides each batch's request (its indices), the dataset maps it
// to a batch. Every worker has its own copy of the dataset (tensors in it are shared, not
// copied).
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "ember/data/dataloader/base.h"

namespace ember::data {

template <typename Dataset, typename Sampler>
class StatelessDataLoader : public DataLoaderBase<Dataset, typename Dataset::BatchType,
                                                  typename Sampler::BatchRequestType> {
 public:
  using super =
      DataLoaderBase<Dataset, typename Dataset::BatchType, typename Sampler::BatchRequestType>;
  using typename super::BatchRequestType;

  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options)
      : super(std::move(options)), sampler_(std::move(sampler)) {
    for (size_t w = 0; w < this->options_.workers; ++w)
      this->workers_.emplace_back([this, dataset]() mutable { this->worker_thread(dataset); });
    if (this->options_.workers == 0)
      this->main_thread_dataset_ = std::make_unique<Dataset>(std::move(dataset));
  }

 private:
  void reset() override {
    sampler_.reset(std::nullopt);
    super::reset();  // last: it queues the first requests
  }

  std::optional<BatchRequestType> get_batch_request() override {
    std::optional<BatchRequestType> request = sampler_.next(this->options_.batch_size);
    if (!request || (request->size() < this->options_.batch_size && this->options_.drop_last))
      return std::nullopt;
    return request;
  }

  Sampler sampler_;
};

}  // namespace ember::data
