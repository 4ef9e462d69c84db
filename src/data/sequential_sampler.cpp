// SequentialSampler: consecutive slices of 0 ... size - 1.
#include <algorithm>
#include <numeric>

#include "ember/data/samplers/sequential.h"

namespace ember::data::samplers {

SequentialSampler::SequentialSampler(size_t size) : size_(size) {}

void SequentialSampler::reset(std::optional<size_t> new_size) {
  size_ = new_size.value_or(size_);
  index_ = 0;
}

std::optional<std::vector<size_t>> SequentialSampler::next(size_t batch_size) {
  const size_t remaining = size_ - index_;
  if (remaining == 0) return std::nullopt;
  std::vector<size_t> batch(std::min(batch_size, remaining));
  std::iota(batch.begin(), batch.end(), index_);
  index_ += batch.size();
  return batch;
}

size_t SequentialSampler::index() const noexcept { return index_; }

}  // namespace ember::data::samplers
