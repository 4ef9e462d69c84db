// The 2-D window arguments of conv2d, the pools and their layers (kernel_size, stride, padding,
// dilation): one value for both dims, or two (height, width).
#pragma once

#include <array>
#include <cstdint>

#include "core/check.h"
#include "ember/array_ref.h"

namespace ember::ops {

// (height, width) from one or two values, each at least `min`; errors name `op` and the argument.
inline std::array<int64_t, 2> pair_arg(const char* op, const char* name, IntArrayRef v,
                                       int64_t min) {
  EMBER_CHECK_T(ValueError, v.size() == 1 || v.size() == 2, "[", op, "] ", name,
                " must be one int or two (height, width), got ", v.size(), " values ", v);
  std::array<int64_t, 2> r{v[0], v[v.size() - 1]};
  EMBER_CHECK_T(ValueError, r[0] >= min && r[1] >= min, "[", op, "] ", name, " must be ",
                min == 0 ? "non-negative" : "positive", ", got ", v);
  return r;
}

}  // namespace ember::ops
