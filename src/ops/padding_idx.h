// padding_idx as PyTorch's embedding functions and modules take it: a row of the table whose
// lookups get no gradient (and that the modules zero), counted from the end when negative.
#pragma once

#include <cstdint>
#include <optional>

#include "core/check.h"

namespace ember::ops {

// `padding_idx` made non-negative; throws a ValueError naming `op` unless it lies in
// [-rows, rows).
inline std::optional<int64_t> normalize_padding_idx(const char* op,
                                                    std::optional<int64_t> padding_idx,
                                                    int64_t rows) {
  if (!padding_idx) return padding_idx;
  EMBER_CHECK_T(ValueError, *padding_idx >= -rows && *padding_idx < rows, "[", op,
                "] padding_idx must be within the number of embeddings, ", -rows, " through ",
                rows - 1, ", but got ", *padding_idx);
  return *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
}

}  // namespace ember::ops
