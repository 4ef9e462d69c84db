// Area 6 (issue 22): the data API as LibTorch's C++ frontend defines it: a custom Dataset,
// TensorDataset, map() through Stack, Lambda, TensorLambda and Normalize, make_data_loader with
// SequentialSampler, DataLoaderOptions, workers, drop_last, the iterator's errors, the
// distributed samplers, a ChunkDataset read in order, and MNIST's error for a missing file.
// (RandomSampler's order is the generator's: only its being a permutation is checked.)
#include <algorithm>
#include <string>
#include <vector>

#include "torch_api.h"

namespace {

namespace data = torch::data;

// Sample i: data [i, 2i] (float), target i % 3.
struct Pairs : data::datasets::Dataset<Pairs> {
  data::Example<> get(size_t index) override {
    const auto i = static_cast<float>(index);
    return {torch::tensor({i, 2 * i}), torch::tensor(static_cast<int64_t>(index % 3))};
  }
  torch::optional<size_t> size() const override { return 5; }
};

std::string show_example(const data::Example<>& batch) {
  return torch_api::show(batch.data) + " | " + torch_api::show(batch.target);
}

// Every batch of one epoch, one after another: `{...} {...}`.
template <class Loader, class Show>
std::string epoch(Loader& loader, Show&& show_batch) {
  std::string out;
  for (auto& batch : loader) out += (out.empty() ? "{" : " {") + show_batch(batch) + "}";
  return out;
}

template <class Int>
std::string joined(const std::vector<Int>& values) {
  std::string out;
  for (Int v : values) out += (out.empty() ? "" : " ") + std::to_string(v);
  return out;
}

template <class Sampler>
std::string indices(Sampler sampler, size_t batch_size) {
  std::string out;
  while (auto batch = sampler.next(batch_size)) out += "[" + joined(*batch) + "]";
  return out;
}

// Chunk c holds 10c ... 10c + c: {0} {10 11} {20 21 22}. LibTorch's ChunkDataset reads a reader's
// BatchType, which its readers define.
struct Chunks : data::datasets::ChunkDataReader<int> {
  using BatchType = data::datasets::ChunkDataReader<int>::ChunkType;
  BatchType read_chunk(size_t chunk_index) override {
    BatchType chunk;
    for (size_t i = 0; i <= chunk_index; ++i)
      chunk.push_back(static_cast<int>(10 * chunk_index + i));
    return chunk;
  }
  size_t chunk_count() override { return 3; }
  void reset() override {}
};

}  // namespace

void data_pipeline() {
  using data::DataLoaderOptions;
  using data::samplers::SequentialSampler;
  namespace transforms = data::transforms;
  torch_api::section("data");

  torch::manual_seed(0);
  torch_api::check("vector batches", [] {
    auto loader = data::make_data_loader<SequentialSampler>(Pairs(), 2);
    return epoch(*loader, [](std::vector<data::Example<>>& batch) {
      std::string out;
      for (auto& e : batch) out += "(" + show_example(e) + ")";
      return out;
    });
  });
  torch_api::check("stacked batches", [] {
    auto loader = data::make_data_loader<SequentialSampler>(Pairs().map(transforms::Stack<>()), 2);
    return epoch(*loader, show_example);
  });
  torch_api::check("drop_last", [] {
    auto loader = data::make_data_loader<SequentialSampler>(Pairs().map(transforms::Stack<>()),
                                                            DataLoaderOptions(2).drop_last(true));
    return epoch(*loader, show_example);
  });
  torch_api::check("workers(2) in order", [] {
    auto loader = data::make_data_loader(Pairs().map(transforms::Stack<>()), SequentialSampler(5),
                                         DataLoaderOptions(2).workers(2));
    return epoch(*loader, show_example);
  });
  torch_api::check("Lambda then Stack", [] {
    auto mapped = Pairs()
                      .map(transforms::Lambda<data::Example<>>([](data::Example<> e) {
                        return data::Example<>(e.data + 1, e.target * 10);
                      }))
                      .map(transforms::Stack<>());
    auto loader = data::make_data_loader<SequentialSampler>(std::move(mapped), 3);
    return epoch(*loader, show_example);
  });
  torch_api::check("TensorLambda", [] {
    auto mapped = Pairs()
                      .map(transforms::TensorLambda<>([](torch::Tensor x) { return x * x; }))
                      .map(transforms::Stack<>());
    auto loader = data::make_data_loader<SequentialSampler>(std::move(mapped), 5);
    return epoch(*loader, show_example);
  });
  torch_api::check("Normalize", [] {
    auto mapped = Pairs().map(transforms::Normalize<>(1.0, 2.0)).map(transforms::Stack<>());
    auto loader = data::make_data_loader<SequentialSampler>(std::move(mapped), 2);
    return epoch(*loader, show_example);
  });
  torch_api::check("Normalize per channel", [] {
    transforms::Normalize<> normalize({0.5, 1.0}, {0.5, 2.0});
    return torch_api::show(normalize(torch::ones({2, 1, 2})));
  });
  torch_api::check("TensorDataset and Stack<TensorExample>", [] {
    auto rows = data::datasets::TensorDataset(torch::arange(6).view({3, 2}))
                    .map(transforms::Stack<data::TensorExample>());
    auto loader = data::make_data_loader<SequentialSampler>(std::move(rows), 2);
    return epoch(*loader, [](data::TensorExample& batch) { return torch_api::show(batch.data); });
  });
  torch_api::check("RandomSampler is a permutation", [] {
    auto loader = data::make_data_loader(Pairs().map(transforms::Stack<>()), 2);
    std::vector<float> seen;
    for (auto& batch : *loader)
      for (int64_t i = 0; i < batch.data.size(0); ++i)
        seen.push_back(batch.data[i][0].item<float>());
    std::sort(seen.begin(), seen.end());
    std::string out;
    for (float v : seen) out += torch_api::show(v) + " ";
    return out;
  });
  torch_api::check("DataLoaderOptions", [] {
    auto loader = data::make_data_loader<SequentialSampler>(
        Pairs(), DataLoaderOptions(3).workers(2).enforce_ordering(false));
    const auto& options = loader->options();
    return torch_api::show(options.batch_size) + " " + torch_api::show(options.workers) + " " +
           torch_api::show(options.max_jobs) + " " + torch_api::show(options.enforce_ordering) +
           " " + torch_api::show(options.drop_last) + " " +
           torch_api::show(options.timeout.has_value());
  });
  torch_api::check("DistributedSequentialSampler(5, 2, 1)", [] {
    return indices(data::samplers::DistributedSequentialSampler(5, 2, 1), 2);
  });
  torch_api::check("DistributedRandomSampler(6, 2, 0)",
                   [] { return indices(data::samplers::DistributedRandomSampler(6, 2, 0), 2); });
  torch_api::check("StreamSampler(5)", [] {
    data::samplers::StreamSampler sampler(5);
    std::string out;
    while (auto size = sampler.next(2)) out += std::to_string(size->size()) + " ";
    return out;
  });
  torch_api::check("ChunkDataset, sequential samplers, one preloader, two epochs", [] {
    using Chunked = data::datasets::ChunkDataset<Chunks, SequentialSampler, SequentialSampler>;
    auto dataset = data::datasets::make_shared_dataset<Chunked>(
        Chunks(), SequentialSampler(0), SequentialSampler(0),
        data::datasets::ChunkDatasetOptions(1, 2));
    auto loader = data::make_data_loader(dataset, DataLoaderOptions(2));
    auto show_batch = [](std::vector<int>& batch) { return joined(batch); };
    return epoch(*loader, show_batch) + " / " + epoch(*loader, show_batch);
  });
  SHOW_THROWS("Preloader count is 0. At least one preloader needs to be specified.",
              data::datasets::ChunkDatasetOptions(0, 1));
  SHOW_THROWS("Cache size is less than batch size.", data::datasets::ChunkDatasetOptions(1, 4, 3));
  data::datasets::ChunkDataset<Chunks> unstarted(Chunks(), data::samplers::RandomSampler(0),
                                                 data::samplers::RandomSampler(0),
                                                 data::datasets::ChunkDatasetOptions(1, 2));
  SHOW_THROWS("Dataset needs to call reset() before calling get_batch().", unstarted.get_batch(2));

  auto loader = data::make_data_loader<SequentialSampler>(Pairs().map(transforms::Stack<>()), 5);
  auto end = loader->end();
  SHOW_THROWS("Dereferencing the DataLoader's past-the-end iterator", *end);
  auto it = loader->begin();
  ++it;
  SHOW_THROWS("Attempted to increment iterator past the end", ++it);
  SHOW_THROWS("Attempted to dereference iterator that was past the end", *it);
  auto threaded =
      data::make_data_loader<SequentialSampler>(Pairs(), DataLoaderOptions(1).workers(1));
  auto first = threaded->begin();
  SHOW(first == threaded->end());
  SHOW_THROWS("Attempted to get a new DataLoader iterator while another iterator",
              threaded->begin());
  SHOW_THROWS("Error opening images file at /nonexistent/train-images-idx3-ubyte",
              data::datasets::MNIST("/nonexistent"));
}
