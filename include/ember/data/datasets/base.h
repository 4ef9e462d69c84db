// The dataset interfaces of LibTorch's data API: a BatchDataset maps a batch request (by default
// the indices of the samples) to a batch; a Dataset is one with random access to single examples,
// whose batches are, unless it overrides get_batch, the examples at each index.
//
// Note [Gathering a batch in one op]: get_batch is virtual, as in LibTorch, so a dataset whose
// samples are rows of tensors overrides it and gathers the whole batch with one index_select (a
// BatchDataset<Self, Example<>>, whose batch is one stacked Example) instead of one get() per
// sample and a Stack: ember has no second, faster batching API beside LibTorch's.
#pragma once

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/array_ref.h"
#include "ember/data/example.h"

namespace ember::data::datasets {

template <typename Source, typename Transform>
class MapDataset;
template <typename Source, typename Transform>
MapDataset<Source, Transform> map(Source dataset, Transform transform);

namespace detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace detail

template <typename Self, typename Batch = std::vector<Example<>>,
          typename BatchRequest = ArrayRef<size_t>>
class BatchDataset {
 public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  // A stateful dataset produces batches until it returns nullopt (datasets/stateful.h).
  constexpr static bool is_stateful = detail::is_optional<BatchType>::value;

  virtual ~BatchDataset() = default;

  virtual Batch get_batch(BatchRequest request) = 0;
  // The number of examples, or nullopt for an unsized dataset (a stream).
  virtual std::optional<size_t> size() const = 0;

  // This dataset with `transform` applied to its batches.
  template <typename Transform>
  MapDataset<Self, Transform> map(Transform transform) & {
    return datasets::map(static_cast<Self&>(*this), std::move(transform));
  }
  template <typename Transform>
  MapDataset<Self, Transform> map(Transform transform) && {
    return datasets::map(std::move(static_cast<Self&>(*this)), std::move(transform));
  }
};

template <typename Self, typename SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
 public:
  using ExampleType = SingleExample;

  virtual ExampleType get(size_t index) = 0;

  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override {
    std::vector<ExampleType> batch;
    batch.reserve(indices.size());
    for (size_t index : indices) batch.push_back(get(index));
    return batch;
  }
};

// A (possibly endless) stream: the request is only how many examples to produce.
template <typename Self, typename Batch = std::vector<Example<>>>
using StreamDataset = BatchDataset<Self, Batch, /*BatchRequest=*/size_t>;

}  // namespace ember::data::datasets
