// datasets::MapDataset: a dataset whose batches are another dataset's with a transform applied
// (what dataset.map(transform) returns). Over a stateful dataset, an empty batch stays empty.
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include "ember/data/datasets/base.h"

namespace ember::data::datasets {

namespace detail {
template <bool Optional, typename T>
using optional_if_t = std::conditional_t<Optional, std::optional<T>, T>;
}  // namespace detail

template <typename SourceDataset, typename AppliedTransform>
class MapDataset
    : public BatchDataset<MapDataset<SourceDataset, AppliedTransform>,
                          detail::optional_if_t<SourceDataset::is_stateful,
                                                typename AppliedTransform::OutputBatchType>,
                          typename SourceDataset::BatchRequestType> {
 public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType =
      detail::optional_if_t<SourceDataset::is_stateful, typename AppliedTransform::OutputBatchType>;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}

  OutputBatchType get_batch(BatchRequestType request) override {
    if constexpr (SourceDataset::is_stateful) {
      auto batch = dataset_.get_batch(std::move(request));
      if (!batch) return std::nullopt;
      return transform_.apply_batch(std::move(*batch));
    } else {
      return transform_.apply_batch(dataset_.get_batch(std::move(request)));
    }
  }
  std::optional<size_t> size() const noexcept override { return dataset_.size(); }
  // Only a stateful source has reset() to call.
  void reset() { dataset_.reset(); }

  const SourceDataset& dataset() noexcept { return dataset_; }
  const AppliedTransform& transform() noexcept { return transform_; }

 private:
  SourceDataset dataset_;
  AppliedTransform transform_;
};

template <typename Source, typename Transform>
MapDataset<Source, Transform> map(Source dataset, Transform transform) {
  using SourceBatch =
      std::conditional_t<Source::is_stateful, typename Source::BatchType::value_type,
                         typename Source::BatchType>;
  static_assert(std::is_same_v<SourceBatch, typename Transform::InputBatchType>,
                "BatchType type of dataset does not match input type of transform");
  return {std::move(dataset), std::move(transform)};
}

}  // namespace ember::data::datasets
