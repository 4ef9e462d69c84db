// The items of an index (include/ember/indexing.h) and x[i]; Tensor::index and index_put_ are
// in advanced_index.cpp, the split of an index into a view and tensor indices in view.cpp.
#include "ember/indexing.h"

#include <cstring>
#include <ostream>
#include <vector>

#include "core/check.h"
#include "core/tensor_impl.h"

namespace ember {

indexing::Slice::Slice(std::optional<int64_t> start, std::optional<int64_t> stop,
                       std::optional<int64_t> step)
    : step_(step.value_or(1)) {
  EMBER_CHECK_T(ValueError, step_ != 0, "[Slice] slice step cannot be zero");
  // As LibTorch: the omitted bounds of a negative step (which index() then refuses) reverse.
  start_ = start.value_or(step_ < 0 ? INDEX_MAX : 0);
  stop_ = stop.value_or(step_ < 0 ? INDEX_MIN : INDEX_MAX);
}

std::ostream& indexing::operator<<(std::ostream& os, const Slice& slice) {
  return os << slice.start() << ":" << slice.stop() << ":" << slice.step();
}

indexing::TensorIndex::TensorIndex(const char* ellipsis) : kind_(Kind::Ellipsis) {
  EMBER_CHECK_T(ValueError, std::strcmp(ellipsis, "...") == 0,
                "[TensorIndex] Expected \"...\" to represent an ellipsis index, but got \"",
                ellipsis, "\"");
}

std::ostream& indexing::operator<<(std::ostream& os, const TensorIndex& index) {
  switch (index.kind()) {
    case TensorIndex::Kind::None: return os << "None";
    case TensorIndex::Kind::Ellipsis: return os << "...";
    case TensorIndex::Kind::Integer: return os << index.integer();
    case TensorIndex::Kind::Boolean: return os << (index.boolean() ? "true" : "false");
    case TensorIndex::Kind::Slice: return os << index.slice();
    case TensorIndex::Kind::Tensor: return os << index.tensor();
  }
  EMBER_INTERNAL_ASSERT(false, "unknown index kind");
}

std::ostream& indexing::operator<<(std::ostream& os, const std::vector<TensorIndex>& indices) {
  os << "(";
  for (size_t i = 0; i < indices.size(); ++i) os << (i > 0 ? ", " : "") << indices[i];
  return os << ")";
}

Tensor Tensor::operator[](const Scalar& index) const {
  EMBER_CHECK_T(IndexError, index.isIntegral(false), "[operator[]] Can only index tensors with ",
                "integral scalars, got ", index, "; use index() for other indices");
  return select(0, index.toLong());
}

Tensor Tensor::operator[](const Tensor& index) const {
  EMBER_CHECK_T(IndexError, index.defined(),
                "[operator[]] Can only index with tensors that are defined");
  EMBER_CHECK_T(IndexError, index.dim() == 0, "[operator[]] Can only index with tensors that are ",
                "scalars (zero-dim), got one of shape ", index.sizes(),
                "; use index({tensor}) for advanced indexing");
  return (*this)[index.item()];
}

}  // namespace ember
