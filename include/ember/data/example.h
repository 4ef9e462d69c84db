// data::Example: one sample (or one collated batch) of a dataset, its data and its target, as
// LibTorch's torch::data::Example. Example<Data, NoTarget> has data only and converts to it.
#pragma once

#include <utility>

#include "ember/tensor.h"

namespace ember::data {

template <typename Data = Tensor, typename Target = Tensor>
struct Example {
  using DataType = Data;
  using TargetType = Target;

  Example() = default;
  Example(Data data, Target target) : data(std::move(data)), target(std::move(target)) {}

  Data data;
  Target target;
};

namespace example {
using NoTarget = void;
}  // namespace example

// An example without a target, for unlabeled datasets; a loader's batch of them reads as the
// data itself.
template <typename Data>
struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;

  Example() = default;
  Example(Data data) : data(std::move(data)) {}  // NOLINT(google-explicit-constructor)

  operator Data&() { return data; }              // NOLINT(google-explicit-constructor)
  operator const Data&() const { return data; }  // NOLINT(google-explicit-constructor)

  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

}  // namespace ember::data
