// The adaptive pools in 1, 2 and 3 dims: PyTorch's windows [floor(o * in / out),
// ceil((o + 1) * in / out)) along each dim, gathered and reduced as every composed pool is (Note
// [Pooling by gathered windows]).
#include <tuple>
#include <vector>

#include "core/check.h"
#include "ember/pool_ops.h"
#include "ops/pool_windows.h"

namespace ember {
namespace {

std::vector<ops::PoolAxis> adaptive_axes(const char* op, const Tensor& input,
                                         IntArrayRef output_size, size_t dims) {
  ops::check_pool_input(op, input, dims);
  EMBER_CHECK_T(ValueError, output_size.size() == dims, "[", op, "] output_size must be ", dims,
                " ints, got ", output_size.size(), " values ", output_size);
  std::vector<ops::PoolAxis> axes;
  for (size_t i = 0; i < dims; ++i) {
    EMBER_CHECK_T(ValueError, output_size[i] > 0, "[", op,
                  "] elements of output_size must be positive, got ", output_size);
    axes.push_back(ops::adaptive_axis(input.size(input.dim() - static_cast<int64_t>(dims - i)),
                                      output_size[i]));
  }
  return axes;
}

}  // namespace

Tensor adaptive_avg_pool1d(const Tensor& input, IntArrayRef output_size) {
  return ops::average_windows(input, adaptive_axes("adaptive_avg_pool1d", input, output_size, 1),
                              std::nullopt);
}
Tensor adaptive_avg_pool2d(const Tensor& input, IntArrayRef output_size) {
  return ops::average_windows(input, adaptive_axes("adaptive_avg_pool2d", input, output_size, 2),
                              std::nullopt);
}
Tensor adaptive_avg_pool3d(const Tensor& input, IntArrayRef output_size) {
  return ops::average_windows(input, adaptive_axes("adaptive_avg_pool3d", input, output_size, 3),
                              std::nullopt);
}

std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& input, IntArrayRef output_size) {
  return ops::max_windows(input, adaptive_axes("adaptive_max_pool1d", input, output_size, 1));
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& input, IntArrayRef output_size) {
  return ops::max_windows(input, adaptive_axes("adaptive_max_pool2d", input, output_size, 2));
}
std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& input, IntArrayRef output_size) {
  return ops::max_windows(input, adaptive_axes("adaptive_max_pool3d", input, output_size, 3));
}

}  // namespace ember
