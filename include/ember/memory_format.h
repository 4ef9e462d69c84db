// MemoryFormat: the order of a new tensor's strides (LibTorch's c10::MemoryFormat). Contiguous
// is row-major; Preserve keeps the layout of the tensor a new one is made from, when that is
// dense (clone, to, *_like, elementwise results). The channels-last formats are refused.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "ember/macros.h"

namespace ember {

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

// "Contiguous", "Preserve", ... as LibTorch prints them.
EMBER_API std::ostream& operator<<(std::ostream& os, MemoryFormat format);

}  // namespace ember
