// The window arguments of the convolutions, the pools, fold/unfold and their layers
// (kernel_size, stride, padding, dilation): one value for every spatial dim, or one per dim.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/check.h"
#include "ember/array_ref.h"

namespace ember::ops {

// `dims` values (depth, height, width for three) from one or `dims` of them, each at least
// `min`; errors name `op` and the argument.
inline std::vector<int64_t> window_arg(const char* op, const char* name, IntArrayRef v, size_t dims,
                                       int64_t min) {
  static constexpr const char* kOrMore[] = {"", "", " or two (height, width)",
                                            " or three (depth, height, width)"};
  EMBER_CHECK_T(ValueError, v.size() == 1 || v.size() == dims, "[", op, "] ", name,
                " must be one int", dims < 4 ? kOrMore[dims] : " or one per dim", ", got ",
                v.size(), " values ", v);
  std::vector<int64_t> values(dims, v[0]);
  if (v.size() == dims) values.assign(v.begin(), v.end());
  for (int64_t value : values)
    EMBER_CHECK_T(ValueError, value >= min, "[", op, "] ", name, " must be ",
                  min == 0 ? "non-negative" : "positive", ", got ", v);
  return values;
}

}  // namespace ember::ops
