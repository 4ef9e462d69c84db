// samplers::Sampler: what a stateless loader asks for the next batch request (by default the
// indices of the batch's examples), epoch after epoch. LibTorch's save(OutputArchive&) and
// load(InputArchive&) are not here yet: ember has no serialize archives (issue 24).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace ember::data::samplers {

template <typename BatchRequest = std::vector<size_t>>
class Sampler {
 public:
  using BatchRequestType = BatchRequest;

  virtual ~Sampler() = default;
  // Starts a new epoch, over `new_size` examples when given.
  virtual void reset(std::optional<size_t> new_size) = 0;
  // The next request of at most batch_size examples, or nullopt when the epoch is over.
  virtual std::optional<BatchRequest> next(size_t batch_size) = 0;
};

}  // namespace ember::data::samplers
