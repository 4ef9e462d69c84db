// samplers::DistributedRandomSampler and DistributedSequentialSampler: replica `rank` of
// `num_replicas` gets its own share of the indices. With allow_duplicates every replica gets
// ceil(size / num_replicas) of them (the first indices again where they run out), else
// floor(size / num_replicas). The random order is std::mt19937 seeded with the epoch, as
// LibTorch's, so every replica shuffles alike and set_epoch changes the order.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "ember/data/samplers/base.h"
#include "ember/macros.h"

namespace ember::data::samplers {

namespace detail {
// A replica's share of the positions, [begin, end), handed out in order from `next` on.
struct EMBER_API ReplicaWindow {
  // The next at most batch_size positions, or nullopt when the share is used up.
  std::optional<std::vector<size_t>> take(size_t batch_size);

  size_t begin = 0;
  size_t end = 0;
  size_t next = 0;
};
}  // namespace detail

template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
 public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true)
      : size_(size),
        num_replicas_(num_replicas),
        rank_(rank),
        epoch_(0),
        allow_duplicates_(allow_duplicates) {}

  // The epoch of the next reset(), which seeds the random order.
  void set_epoch(size_t epoch) { epoch_ = epoch; }
  size_t epoch() const { return epoch_; }

 protected:
  size_t local_sample_count() const {
    return allow_duplicates_ ? (size_ + num_replicas_ - 1) / num_replicas_ : size_ / num_replicas_;
  }

  size_t size_;
  size_t num_replicas_;
  size_t rank_;
  size_t epoch_;
  bool allow_duplicates_;
};

class EMBER_API DistributedRandomSampler : public DistributedSampler<> {
 public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                           bool allow_duplicates = true);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  size_t index() const noexcept;

 private:
  void populate_indices();

  detail::ReplicaWindow window_;
  std::vector<size_t> all_indices_;
};

class EMBER_API DistributedSequentialSampler : public DistributedSampler<> {
 public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                               bool allow_duplicates = true);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  size_t index() const noexcept;

 private:
  void populate_indices();

  detail::ReplicaWindow window_;
};

}  // namespace ember::data::samplers
