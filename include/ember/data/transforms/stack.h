// transforms::Stack: collates a batch of examples into one example whose data (and target) are
// the examples' tensors stacked along a new first dimension.
#pragma once

#include <utility>
#include <vector>

#include "ember/data/example.h"
#include "ember/data/transforms/collate.h"
#include "ember/shape_ops.h"

namespace ember::data::transforms {

template <typename T = Example<>>
struct Stack;

template <>
struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override {
    std::vector<Tensor> data, targets;
    data.reserve(examples.size());
    targets.reserve(examples.size());
    for (Example<>& example : examples) {
      data.push_back(std::move(example.data));
      targets.push_back(std::move(example.target));
    }
    return {stack(data), stack(targets)};
  }
};

template <>
struct Stack<TensorExample> : public Collation<TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override {
    std::vector<Tensor> data;
    data.reserve(examples.size());
    for (TensorExample& example : examples) data.push_back(std::move(example.data));
    return stack(data);
  }
};

}  // namespace ember::data::transforms
