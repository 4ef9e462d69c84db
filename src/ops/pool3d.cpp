// The 3-d pools, composed from gathered windows (Note [Pooling by gathered windows]): no kernel
// of their own, so they run on every device and differentiate through index_select and gather.
#include <tuple>

#include "core/check.h"
#include "ember/pool_ops.h"
#include "ops/pool_windows.h"

namespace ember {

std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  ops::check_pool_input("max_pool3d", input, 3);
  return ops::max_windows(input, ops::sliding_axes("max_pool3d", input, 3, kernel_size, stride,
                                                   padding, dilation, ceil_mode, true));
}

Tensor max_pool3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor avg_pool3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  EMBER_CHECK_T(ValueError, !divisor_override || *divisor_override != 0,
                "[avg_pool3d] divisor must be not zero");
  ops::check_pool_input("avg_pool3d", input, 3);
  return ops::average_windows(input,
                              ops::sliding_axes("avg_pool3d", input, 3, kernel_size, stride,
                                                padding, 1, ceil_mode, count_include_pad),
                              divisor_override);
}

}  // namespace ember
