// The bound an index kernel checks its indices against, and the error its op raises for one
// outside it. The kernels take it so that the check costs no extra pass and, on a GPU, no host
// wait (Note [Index errors found by GPU kernels]).
#pragma once

#include <cstdint>

namespace ember::kernels {

struct IndexBounds;

// Throws the op's error for `value`, with `note` appended to the message. Never returns.
using RaiseOutOfBounds = void (*)(const IndexBounds& bounds, int64_t value, const char* note);

// Indices must lie in [0, size). `op` must be a string literal and `raise` a function: both may
// be carried through a GPU kernel and used after the call that launched it has returned.
struct IndexBounds {
  const char* op;
  int64_t dim;
  int64_t size;
  RaiseOutOfBounds raise;
};

// The usual raise: IndexError "[op] index 7 is out of bounds for dimension 0 with size 3".
[[noreturn]] void index_out_of_bounds(const IndexBounds& bounds, int64_t value, const char* note);

// Bounds for `op`'s dimension `dim` of `size` elements, raising the usual error.
inline IndexBounds bounds_of(const char* op, int64_t dim, int64_t size) {
  return {op, dim, size, &index_out_of_bounds};
}

// Calls bounds.raise, which throws.
// Exported, as index_out_of_bounds, for the emulated GPU loop's tests.
[[noreturn]] void raise_out_of_bounds(const IndexBounds& bounds, int64_t value,
                                      const char* note = "");

}  // namespace ember::kernels
