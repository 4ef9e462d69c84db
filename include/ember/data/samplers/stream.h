// samplers::StreamSampler: for stream datasets, which are asked only how many examples to
// produce: BatchSize requests summing to epoch_size per epoch.
#pragma once

#include <cstddef>
#include <optional>

#include "ember/data/samplers/base.h"
#include "ember/data/samplers/custom_batch_request.h"
#include "ember/macros.h"

namespace ember::data::samplers {

struct EMBER_API BatchSize : public CustomBatchRequest {
  explicit BatchSize(size_t size);
  size_t size() const noexcept override;
  operator size_t() const noexcept;  // NOLINT(google-explicit-constructor)

  size_t size_;
};

class EMBER_API StreamSampler : public Sampler<BatchSize> {
 public:
  explicit StreamSampler(size_t epoch_size);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  // min(batch_size, what is left of the epoch), or nullopt when the epoch is over.
  std::optional<BatchSize> next(size_t batch_size) override;

 private:
  size_t examples_retrieved_so_far_ = 0;
  size_t epoch_size_;
};

}  // namespace ember::data::samplers
