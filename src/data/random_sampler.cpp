// RandomSampler: a randperm per epoch, handed out in slices.
#include <algorithm>

#include "ember/data/samplers/random.h"
#include "ember/factory.h"

namespace ember::data::samplers {

RandomSampler::RandomSampler(int64_t size, Dtype index_dtype)
    : indices_(randperm(size, index_dtype)) {}

RandomSampler::~RandomSampler() = default;

void RandomSampler::reset(std::optional<size_t> new_size) {
  const auto size = static_cast<int64_t>(new_size.value_or(static_cast<size_t>(indices_.numel())));
  indices_ = randperm(size, indices_.options());
  index_ = 0;
}

std::optional<std::vector<size_t>> RandomSampler::next(size_t batch_size) {
  const auto remaining = static_cast<size_t>(indices_.numel() - index_);
  if (remaining == 0) return std::nullopt;
  const auto count = static_cast<int64_t>(std::min(batch_size, remaining));
  // Stored narrower perhaps, handed out as size_t: widen just this slice.
  const Tensor slice = indices_.narrow(0, index_, count).to(kInt64);
  const auto* first = slice.data_ptr<int64_t>();
  index_ += count;
  return std::vector<size_t>(first, first + count);
}

size_t RandomSampler::index() const noexcept { return static_cast<size_t>(index_); }

}  // namespace ember::data::samplers
