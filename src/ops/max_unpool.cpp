// max_unpool2d/3d: each input value scattered to its flat position in a zero plane of
// output_size, so that the gradient is the output's gradient gathered back at those positions.
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/pool_ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "ops/pool_windows.h"

namespace ember {
namespace {

Tensor unpool(const char* op, const Tensor& input, const Tensor& indices, IntArrayRef output_size,
              size_t dims) {
  ops::check_pool_input(op, input, dims);
  EMBER_CHECK_T(TypeError, indices.defined() && indices.scalar_type() == kInt64, "[", op,
                "] expected indices of dtype int64 (max_pool's second result)");
  EMBER_CHECK_T(ValueError, indices.sizes() == input.sizes(), "[", op,
                "] Expected shape of indices to be same as that of the input tensor (",
                input.sizes(), ") but got indices tensor with shape: ", indices.sizes());
  EMBER_CHECK_T(ValueError, output_size.size() == dims, "[", op, "] output_size must have ", dims,
                " elements, got ", output_size);
  const int64_t lead = input.dim() - static_cast<int64_t>(dims);
  int64_t plane = 1;
  for (int64_t size : output_size) plane *= size;
  // One host read of the indices' range: a position outside the plane would write out of it.
  EMBER_CHECK_T(ValueError,
                indices.numel() == 0 ||
                    (indices.min().item<int64_t>() >= 0 && indices.max().item<int64_t>() < plane),
                "[", op, "] Found an invalid max index (output volumes are of size ", output_size,
                ")");
  std::vector<int64_t> shape(input.sizes().begin(), input.sizes().begin() + lead);
  std::vector<int64_t> flat = shape;
  flat.push_back(plane);
  shape.insert(shape.end(), output_size.begin(), output_size.end());
  return zeros(flat, input.options())
      .scatter(-1, indices.flatten(lead), input.flatten(lead))
      .view(shape);
}

}  // namespace

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size) {
  return unpool("max_unpool2d", self, indices, output_size, 2);
}

Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                    IntArrayRef stride, IntArrayRef padding) {
  ops::window_arg("max_unpool3d", "stride", stride, 3, 1);
  ops::window_arg("max_unpool3d", "padding", padding, 3, 0);
  return unpool("max_unpool3d", self, indices, output_size, 3);
}

}  // namespace ember
