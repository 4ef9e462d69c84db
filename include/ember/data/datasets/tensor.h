// datasets::TensorDataset: the examples are the rows (dim 0) of one tensor, without targets, as
// LibTorch's. (Paired inputs and targets: a Dataset<Self> subclass, or MNIST's form.)
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/shape_ops.h"

namespace ember::data::datasets {

struct TensorDataset : public Dataset<TensorDataset, TensorExample> {
  // The tensors stacked along a new first dimension.
  explicit TensorDataset(const std::vector<Tensor>& tensors) : TensorDataset(stack(tensors)) {}
  explicit TensorDataset(Tensor tensor) : tensor(std::move(tensor)) {}

  TensorExample get(size_t index) override { return tensor[static_cast<int64_t>(index)]; }
  std::optional<size_t> size() const override { return static_cast<size_t>(tensor.size(0)); }

  Tensor tensor;
};

}  // namespace ember::data::datasets
