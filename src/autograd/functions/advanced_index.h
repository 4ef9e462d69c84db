// Backward formulas of Python's advanced indexing (ops/advanced_index.cpp): x.index with tensor
// indices and index_put_. Both save the int64 positions per indexed dim, already wrapped and
// broadcast, and undefined at the dims no tensor indexed (a List as index() takes it).
#pragma once

#include <cstdint>
#include <vector>

#include "autograd/record.h"

namespace ember::autograd::functions {

// IndexBackward0: the gradient added into zeros of the input's shape at the positions it was
// read from (index_put_ with accumulate, so repeated positions sum). Saves the defined positions.
struct IndexBackward0 {
  static constexpr const char* kName = "IndexBackward0";
  std::vector<int64_t> input;  // the input's shape
  std::vector<int64_t> dims;   // the input dim each saved position tensor indexes
  Grads operator()(const Context& c) const;
};

// IndexPutBackward0: self's gradient unchanged with accumulate, else zero where values landed;
// the values' gradient read from those positions, summed over what the values broadcast along.
// Inputs [self, values]; saves the defined positions.
struct IndexPutBackward0 {
  static constexpr const char* kName = "IndexPutBackward0";
  std::vector<int64_t> dims;    // the self dim each saved position tensor indexes
  std::vector<int64_t> values;  // the values' shape
  bool accumulate;
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
