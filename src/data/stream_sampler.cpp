// StreamSampler and its BatchSize request.
#include <algorithm>

#include "ember/data/samplers/stream.h"

namespace ember::data::samplers {

BatchSize::BatchSize(size_t size) : size_(size) {}
size_t BatchSize::size() const noexcept { return size_; }
BatchSize::operator size_t() const noexcept { return size_; }

StreamSampler::StreamSampler(size_t epoch_size) : epoch_size_(epoch_size) {}

void StreamSampler::reset(std::optional<size_t> new_size) {
  epoch_size_ = new_size.value_or(epoch_size_);
  examples_retrieved_so_far_ = 0;
}

std::optional<BatchSize> StreamSampler::next(size_t batch_size) {
  const size_t remaining = epoch_size_ - examples_retrieved_so_far_;
  if (remaining == 0) return std::nullopt;
  const size_t count = std::min(batch_size, remaining);
  examples_retrieved_so_far_ += count;
  return BatchSize(count);
}

}  // namespace ember::data::samplers
