// index_fill: the slices at given positions along a dim set to a number, as a masked_fill whose
// mask marks those positions (so it runs, checks and differentiates as masked_fill does).
#include <vector>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/shape_ops.h"
#include "ember/tensor.h"

namespace ember {

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  EMBER_CHECK_T(TypeError, index.scalar_type() == kInt64,
                "[index_fill] Expected dtype int64 for index, got ", index.scalar_type(),
                "; convert it with index.to(torch::kLong)");
  EMBER_CHECK_T(IndexError, index.dim() <= 1,
                "[index_fill] Index has to be a vector/scalar, got shape ", index.sizes());
  const int64_t d = detail::wrap_dim(dim, self.dim(), "index_fill");
  const int64_t n = self.dim() == 0 ? 1 : self.size(d);
  Tensor marked = zeros({n}, TensorOptions(kBool).device(self.device()));
  marked.index_put_({index.reshape({-1})}, true);  // checks the positions against n
  std::vector<int64_t> shape(static_cast<size_t>(self.dim()), 1);
  if (self.dim() > 0) shape[d] = n;
  return masked_fill(self, marked.view(shape), value);
}

Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ember::index_fill(*this, dim, index, value);
}
Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const {
  return copy_(ember::index_fill(*this, dim, index, value));
}

}  // namespace ember
