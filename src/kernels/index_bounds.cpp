// The usual out-of-bounds error of the index kernels (index_bounds.h).
#include "kernels/index_bounds.h"

#include "core/check.h"

namespace ember::kernels {

void index_out_of_bounds(const IndexBounds& bounds, int64_t value, const char* note) {
  detail::fail<IndexError>("[", bounds.op, "] index ", value, " is out of bounds for dimension ",
                           bounds.dim, " with size ", bounds.size, note);
}

void raise_out_of_bounds(const IndexBounds& bounds, int64_t value, const char* note) {
  bounds.raise(bounds, value, note);
  EMBER_INTERNAL_ASSERT(false, "an out-of-bounds raiser returned for [", bounds.op, "]");
}

}  // namespace ember::kernels
