// check_shape_fits: whether a shape read from a file can be an ember tensor, checked before any
// allocation so that a reader refuses it with its own "[op] <path>: " message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::io {

// Throws ValueError(context + why) unless `shape` (non-negative sizes) fits an ember tensor: at
// most kMaxDims dims and a span within Note [Size limits] (an empty [0, 2^40, 2^40] would have a
// stride of 2^80).
void check_shape_fits(const std::vector<int64_t>& shape, const std::string& context);

}  // namespace ember::io
