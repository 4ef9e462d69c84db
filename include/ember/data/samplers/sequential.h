// samplers::SequentialSampler: the indices 0 ... size - 1 in order, every epoch.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "ember/data/samplers/base.h"
#include "ember/macros.h"

namespace ember::data::samplers {

class EMBER_API SequentialSampler : public Sampler<> {
 public:
  explicit SequentialSampler(size_t size);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  size_t index() const noexcept;

 private:
  size_t size_;
  size_t index_ = 0;
};

}  // namespace ember::data::samplers
