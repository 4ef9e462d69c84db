// check_shape_fits: ember's limits on a tensor's shape, applied to shapes that files declare.
#include "io/shape_check.h"

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/array_ref.h"

namespace ember::io {

void check_shape_fits(const std::vector<int64_t>& shape, const std::string& context) {
  EMBER_CHECK_T(ValueError, shape.size() <= static_cast<size_t>(detail::kMaxDims), context,
                shape.size(), " dimensions; ember tensors have at most ", detail::kMaxDims);
  EMBER_CHECK_T(ValueError, detail::span_fits(shape), context, "shape ", IntArrayRef(shape),
                " is too large for an ember tensor");
}

}  // namespace ember::io
