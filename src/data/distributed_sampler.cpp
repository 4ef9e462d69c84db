// DistributedRandomSampler and DistributedSequentialSampler: a replica's window of the indices.
#include <algorithm>
#include <numeric>
#include <random>

#include "ember/data/samplers/distributed.h"

namespace ember::data::samplers {

std::optional<std::vector<size_t>> detail::ReplicaWindow::take(size_t batch_size) {
  if (next == end) return std::nullopt;
  const size_t stop = std::min(next + batch_size, end);
  std::vector<size_t> positions(stop - next);
  std::iota(positions.begin(), positions.end(), next);
  next = stop;
  return positions;
}

DistributedRandomSampler::DistributedRandomSampler(size_t size, size_t num_replicas, size_t rank,
                                                   bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  DistributedRandomSampler::reset(size_);
}

void DistributedRandomSampler::reset(std::optional<size_t> new_size) {
  size_ = new_size.value_or(size_);
  populate_indices();
  std::mt19937 generator(static_cast<std::mt19937::result_type>(epoch_));
  std::shuffle(all_indices_.begin(), all_indices_.end(), generator);
  window_.next = window_.begin;
}

// All replicas' indices: 0 ... size - 1, then (with duplicates allowed) 0, 1, ... again until
// every replica has a full share.
void DistributedRandomSampler::populate_indices() {
  const size_t local = local_sample_count();
  const size_t total = num_replicas_ == 1 ? size_ : local * num_replicas_;
  all_indices_.resize(total);
  for (size_t i = 0; i < total; ++i) all_indices_[i] = i < size_ ? i : i - size_;
  window_ = {rank_ * local, rank_ * local + local, rank_ * local};
}

std::optional<std::vector<size_t>> DistributedRandomSampler::next(size_t batch_size) {
  auto positions = window_.take(batch_size);
  if (positions)
    for (size_t& position : *positions) position = all_indices_[position];
  return positions;
}

size_t DistributedRandomSampler::index() const noexcept { return window_.next; }

DistributedSequentialSampler::DistributedSequentialSampler(size_t size, size_t num_replicas,
                                                           size_t rank, bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  populate_indices();
}

void DistributedSequentialSampler::reset(std::optional<size_t> new_size) {
  const size_t size = new_size.value_or(size_);
  if (size != size_) {
    size_ = size;
    populate_indices();
  } else {
    window_.next = window_.begin;
  }
}

void DistributedSequentialSampler::populate_indices() {
  const size_t local = local_sample_count();
  window_ = {rank_ * local, rank_ * local + local, rank_ * local};
}

// Positions past the end of the dataset (the last replica's duplicates) wrap around to 0, 1, ...
std::optional<std::vector<size_t>> DistributedSequentialSampler::next(size_t batch_size) {
  auto indices = window_.take(batch_size);
  if (indices)
    for (size_t& index : *indices) index %= size_;
  return indices;
}

size_t DistributedSequentialSampler::index() const noexcept { return window_.next; }

}  // namespace ember::data::samplers
