// Where a check or a warning was raised, as LibTorch's c10::SourceLocation.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "ember/macros.h"

namespace ember {

struct SourceLocation {
  const char* function;
  const char* file;
  uint32_t line;
};

// "function at file:line", as LibTorch writes it.
EMBER_API std::ostream& operator<<(std::ostream& os, const SourceLocation& loc);

}  // namespace ember
