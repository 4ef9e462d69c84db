// The datasets and transforms of the data API: Example, TensorDataset, a custom Dataset and a
// BatchDataset that gathers its batch in one op, SharedBatchDataset, map() through Stack, Lambda,
// BatchLambda, Collate, TensorLambda and Normalize.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "ember/data.h"
#include "test_util.h"

namespace ember {
namespace {

using data::Example;
using data::TensorExample;
using test::expect_values;
namespace datasets = data::datasets;
namespace transforms = data::transforms;

// Sample i: data [i, 10 + i] (float), target i % 3.
struct Pairs : datasets::Dataset<Pairs> {
  Example<> get(size_t index) override {
    const auto i = static_cast<float>(index);
    return {tensor({i, 10 + i}), tensor(static_cast<int64_t>(index % 3))};
  }
  std::optional<size_t> size() const override { return 5; }
};

// The same samples as rows of two tensors, a batch gathered with one index_select each
// (Note [Gathering a batch in one op]).
struct GatheredPairs : datasets::BatchDataset<GatheredPairs, Example<>> {
  Tensor data = stack({arange(5, kFloat32), arange(5, kFloat32) + 10}, 1);
  Tensor targets = arange(5) % 3;
  Example<> get_batch(ArrayRef<size_t> indices) override {
    std::vector<int64_t> rows(indices.begin(), indices.end());
    const Tensor index = tensor(rows);
    return {data.index_select(0, index), targets.index_select(0, index)};
  }
  std::optional<size_t> size() const override { return 5; }
};

TEST(DataExample, HoldsDataAndTargetOrDataAlone) {
  Example<> e(ones({2}), zeros({}, kInt64));
  expect_values<float>(e.data, {2}, {1, 1});
  expect_values<int64_t>(e.target, {}, {0});
  static_assert(std::is_same_v<Example<>::TargetType, Tensor>);
  TensorExample alone = full({2}, 3.0);
  const Tensor& as_data = alone;  // a target-less example reads as its data
  expect_values<float>(as_data, {2}, {3, 3});
  static_assert(std::is_same_v<TensorExample::TargetType, data::example::NoTarget>);
}

TEST(DataDataset, GetBatchCallsGetForEachIndex) {
  Pairs pairs;
  std::vector<Example<>> batch = pairs.get_batch(std::vector<size_t>{4, 1});
  ASSERT_EQ(batch.size(), 2u);
  expect_values<float>(batch[0].data, {2}, {4, 14});
  expect_values<int64_t>(batch[0].target, {}, {1});
  expect_values<float>(batch[1].data, {2}, {1, 11});
  EXPECT_FALSE(Pairs::is_stateful);
}

TEST(DataDataset, MapStackGivesOneExampleOfStackedTensors) {
  auto stacked = Pairs().map(transforms::Stack<>());
  static_assert(std::is_same_v<decltype(stacked)::BatchType, Example<>>);
  EXPECT_EQ(stacked.size(), std::optional<size_t>(5));
  Example<> batch = stacked.get_batch(std::vector<size_t>{0, 2, 3});
  expect_values<float>(batch.data, {3, 2}, {0, 10, 2, 12, 3, 13});
  expect_values<int64_t>(batch.target, {3}, {0, 2, 0});
}

TEST(DataDataset, OverriddenGetBatchGathersTheSameBatch) {
  GatheredPairs gathered;
  Example<> batch = gathered.get_batch(std::vector<size_t>{0, 2, 3});
  expect_values<float>(batch.data, {3, 2}, {0, 10, 2, 12, 3, 13});
  expect_values<int64_t>(batch.target, {3}, {0, 2, 0});
}

TEST(DataDataset, SharedBatchDatasetReadsOneInstance) {
  auto shared = datasets::make_shared_dataset<Pairs>();
  auto copy = shared;  // copies (a loader's workers) share the one Pairs
  EXPECT_EQ(&*copy, &*shared);
  EXPECT_EQ(copy->size(), std::optional<size_t>(5));
  expect_values<float>(copy.get_batch(std::vector<size_t>{3})[0].data, {2}, {3, 13});
}

TEST(DataTensorDataset, RowsOfOneTensorWithoutTargets) {
  datasets::TensorDataset rows(arange(6).view({3, 2}));
  EXPECT_EQ(rows.size(), std::optional<size_t>(3));
  expect_values<int64_t>(rows.get(1).data, {2}, {2, 3});
  datasets::TensorDataset stacked(std::vector<Tensor>{zeros({2}), ones({2})});
  expect_values<float>(stacked.tensor, {2, 2}, {0, 0, 1, 1});
  TensorExample batch =
      stacked.map(transforms::Stack<TensorExample>()).get_batch(std::vector<size_t>{1, 0, 1});
  expect_values<float>(batch.data, {3, 2}, {1, 1, 0, 0, 1, 1});
}

TEST(DataTransforms, LambdaMapsEachExampleBatchLambdaTheWholeBatch) {
  auto doubled = Pairs().map(
      transforms::Lambda<Example<>>([](Example<> e) { return Example<>(e.data * 2, e.target); }));
  expect_values<float>(doubled.get_batch(std::vector<size_t>{1})[0].data, {2}, {2, 22});

  auto count = Pairs().map(transforms::BatchLambda<std::vector<Example<>>, size_t>(
      [](std::vector<Example<>> batch) { return batch.size(); }));
  EXPECT_EQ(count.get_batch(std::vector<size_t>{0, 1, 2}), 3u);

  auto first = Pairs().map(
      transforms::Collate<Example<>>([](std::vector<Example<>> batch) { return batch.front(); }));
  expect_values<float>(first.get_batch(std::vector<size_t>{3, 4}).data, {2}, {3, 13});
}

TEST(DataTransforms, TensorLambdaAndNormalizeChangeTheDataOnly) {
  auto shifted = Pairs().map(transforms::TensorLambda<>([](Tensor x) { return x + 1; }));
  Example<> e = shifted.get_batch(std::vector<size_t>{2})[0];
  expect_values<float>(e.data, {2}, {3, 13});
  expect_values<int64_t>(e.target, {}, {2});

  // One channel: mean and stddev broadcast as [1, 1, 1] (LibTorch's shape; a 1-d input comes
  // out [1, 1, 2]).
  transforms::Normalize<> normalize(2.0, 4.0);
  expect_values<float>(normalize.mean, {1, 1, 1}, {2});
  Example<> n = Pairs().map(normalize).get_batch(std::vector<size_t>{2})[0];
  expect_values<float>(n.data, {1, 1, 2}, {0, 2.5});
  // Per channel: [C, 1, 1] over [C, H, W] images.
  transforms::Normalize<> per_channel({0.0, 1.0}, {1.0, 2.0});
  expect_values<float>(per_channel(ones({2, 1, 2})), {2, 1, 2}, {1, 1, 0, 0});
}

}  // namespace
}  // namespace ember
