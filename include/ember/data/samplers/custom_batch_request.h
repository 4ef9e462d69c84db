// samplers::CustomBatchRequest: the base of batch requests other than a vector of indices.
#pragma once

#include <cstddef>

#include "ember/macros.h"

namespace ember::data::samplers {

struct EMBER_API CustomBatchRequest {
  virtual ~CustomBatchRequest() = default;
  // How many examples the request asks for.
  virtual size_t size() const = 0;
};

}  // namespace ember::data::samplers
