// make_data_loader: a loader over a dataset, as LibTorch's. `for (auto& batch : *loader)` gives
// the dataset's batches: a std::vector<Example<>> of a plain Dataset, one stacked Example<> after
// .map(transforms::Stack<>()). A stateless dataset is read through a sampler (a RandomSampler over
// its size unless given one); a stateful one decides its batches itself.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "ember/data/dataloader/stateful.h"
#include "ember/data/dataloader/stateless.h"
#include "ember/data/samplers/random.h"
#include "ember/error.h"

namespace ember::data {

template <typename Dataset, typename Sampler>
requires(!Dataset::is_stateful)
    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(
        Dataset dataset, Sampler sampler, DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), std::move(options));
}

template <typename Sampler = samplers::RandomSampler, typename Dataset>
requires(!Dataset::is_stateful && std::is_constructible_v<Sampler, size_t>)
    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(
        Dataset dataset, DataLoaderOptions options = DataLoaderOptions()) {
  const std::optional<size_t> size = dataset.size();
  if (!size) throw Error("Expected the dataset to be sized in order to construct the Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size), std::move(options));
}

template <typename Dataset>
requires Dataset::is_stateful std::unique_ptr<StatefulDataLoader<Dataset>> make_data_loader(
    Dataset dataset, DataLoaderOptions options = DataLoaderOptions()) {
  return std::make_unique<StatefulDataLoader<Dataset>>(std::move(dataset), std::move(options));
}

}  // namespace ember::data
