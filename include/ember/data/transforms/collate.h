// transforms::Collation and Collate: transforms that reduce a batch (a vector of examples) to one
// value; a dataset mapped through one has that value as its batch.
#pragma once

#include <vector>

#include "ember/data/transforms/lambda.h"

namespace ember::data::transforms {

template <typename T, typename BatchType = std::vector<T>>
using Collation = BatchTransform<BatchType, T>;

template <typename T, typename BatchType = std::vector<T>>
using Collate = BatchLambda<BatchType, T>;

}  // namespace ember::data::transforms
