// check_shape_fits: ember's limits on a tensor's shape, applied to shapes that files declare.
#include "io/shape_check.h"

#include <algorithm>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/int_array_ref.h"

namespace ember::io {

void check_shape_fits(const std::vector<int64_t>& shape, const std::string& context) {
  EMBER_CHECK_T(ValueError, shape.size() <= static_cast<size_t>(detail::kMaxDims), context,
                shape.size(), " dimensions; ember tensors have at most ", detail::kMaxDims);
  constexpr int64_t kLimit = int64_t{1} << 62;  // checked_numel's bound on the element count
  int64_t span = 1;
  for (int64_t size : shape) {
    int64_t factor = std::max<int64_t>(size, 1);
    EMBER_CHECK_T(ValueError, span <= kLimit / factor, context, "shape ", IntArrayRef(shape),
                  " is too large for an ember tensor");
    span *= factor;
  }
}

}  // namespace ember::io
