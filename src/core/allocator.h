// Allocator: raw memory for one device. Storage returns memory to the allocator that made it.
#pragma once

#include <cstddef>

namespace ember::detail {

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Throws OutOfMemoryError naming the size when the memory cannot be had.
  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* ptr, size_t nbytes) noexcept = 0;
};

}  // namespace ember::detail
