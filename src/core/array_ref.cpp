// Printing of shapes in messages ("[2, 3]"), and ArrayRef's failures.
#include "ember/array_ref.h"

#include <ostream>

#include "core/check.h"

namespace ember {

std::ostream& operator<<(std::ostream& os, IntArrayRef a) {
  os << '[';
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << ']';
}

namespace detail {

void fail_array_ref_empty(const char* accessor) {
  fail<IndexError>("ArrayRef: attempted to access ", accessor, "() of empty list");
}

void fail_array_ref_index(size_t index, size_t length) {
  fail<IndexError>("ArrayRef: invalid index Index = ", index, "; Length = ", length);
}

void fail_array_ref_slice(size_t n, size_t m, size_t length) {
  fail<IndexError>("ArrayRef: invalid slice, N = ", n, "; M = ", m, "; size = ", length);
}

}  // namespace detail
}  // namespace ember
