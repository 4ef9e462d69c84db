// samplers::RandomSampler: every index once per epoch in a random order, a randperm drawn from
// ember's generator at construction and at each reset (so manual_seed makes it reproducible).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/data/samplers/base.h"
#include "ember/dtype.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::data::samplers {

class EMBER_API RandomSampler : public Sampler<> {
 public:
  // The permutation is stored as index_dtype: a narrower type saves memory on large datasets.
  explicit RandomSampler(int64_t size, Dtype index_dtype = kInt64);
  ~RandomSampler() override;

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  // How many indices of this epoch were handed out.
  size_t index() const noexcept;

 private:
  Tensor indices_;
  int64_t index_ = 0;
};

}  // namespace ember::data::samplers
