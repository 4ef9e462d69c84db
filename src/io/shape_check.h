// check_shape_fits: whether a shape read from a file can be an ember tensor, checked before any
// allocation so that a reader refuses it with its own "[op] <path>: " message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ember::io {

// Throws ValueError(context + why) unless `shape` (non-negative sizes) fits an ember tensor: at
// most kMaxDims dims, and no size product past 2^62 with zero sizes counted as one, as the
// strides of a contiguous tensor are those products (an empty [0, 2^40, 2^40] has a stride 2^80).
void check_shape_fits(const std::vector<int64_t>& shape, const std::string& context);

}  // namespace ember::io
