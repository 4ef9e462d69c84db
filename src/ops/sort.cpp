// Sorting: sort, argsort and topk share one kernel that orders each slice along a dim and keeps
// its first k elements (k = the dim's size for sort). Their Tensor methods too.
#include <algorithm>
#include <vector>

#include "autograd/functions/reduce.h"
#include "autograd/record.h"
#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/shape_ops.h"
#include "kernels/shape_stubs.h"
#include "ops/shape_util.h"

namespace ember {
namespace {

using ops::at_least_1d;

// `d` is already wrapped against max(x.dim(), 1); 0 <= k <= the dim's size. `node` names the
// backward (SortBackward0, TopkBackward0).
std::tuple<Tensor, Tensor> first_k(const char* op, const char* node, const Tensor& x, int64_t d,
                                   int64_t k, bool descending, bool sorted) {
  std::vector<int64_t> shape = x.sizes().vec();
  if (!shape.empty()) shape[d] = k;
  Tensor values = empty(shape, x.options());
  Tensor indices = empty(shape, x.options().dtype(kInt64));
  if (x.dim() == 0) {
    // A 0-dim tensor is its own order, for k = 0 as for k = 1: its value at index 0 (PyTorch).
    autograd::NoGradGuard no_grad;
    values.copy_(x);
    indices.zero_();
  } else if (values.numel() > 0) {
    kernels::TensorIter slices =
        kernels::make_iter({op, x.scalar_type(), x.scalar_type(), false, {"self", "indices"}},
                           values.select(d, 0), {x.select(d, 0), indices.select(d, 0)});
    const auto bytes = [d](const Tensor& t) {
      return t.stride(d) * static_cast<int64_t>(t.element_size());
    };
    kernels::SortSpec spec{
        x.size(d), k, {bytes(values), bytes(x), bytes(indices)}, descending, sorted};
    kernels::sort_stub(slices.device_type(), slices, spec);
  }
  if (autograd::needs_grad(x))  // each value's gradient goes back to where it came from
    autograd::record(
        node, {values}, {x}, {indices},
        autograd::functions::ValueSelectingBackward{d, /*keepdim=*/true, x.sizes().vec()});
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& x, int64_t dim, bool descending) {
  int64_t d = detail::wrap_dim(dim, std::max<int64_t>(x.dim(), 1), "sort");
  return first_k("sort", "SortBackward0", x, d, at_least_1d(x).size(d), descending, true);
}

// Every sort is stable: `stable` has nothing to choose.
std::tuple<Tensor, Tensor> sort(const Tensor& x, std::optional<bool> /*stable*/, int64_t dim,
                                bool descending) {
  return sort(x, dim, descending);
}

Tensor argsort(const Tensor& x, int64_t dim, bool descending) {
  return std::get<1>(sort(x, dim, descending));
}
Tensor argsort(const Tensor& x, bool /*stable*/, int64_t dim, bool descending) {
  return argsort(x, dim, descending);
}

std::tuple<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim, bool largest,
                                bool sorted) {
  // As PyTorch: there is no order of bools to pick the top of.
  EMBER_CHECK_T(TypeError, x.scalar_type() != kBool, "[topk] not implemented for 'Bool'");
  int64_t d = detail::wrap_dim(dim, std::max<int64_t>(x.dim(), 1), "topk");
  int64_t n = at_least_1d(x).size(d);
  EMBER_CHECK_T(IndexError, k >= 0 && k <= n, "[topk] selected index k out of range: k = ", k,
                " but dimension ", d, " has size ", n);
  return first_k("topk", "TopkBackward0", x, d, k, largest, sorted);
}

std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  return ember::sort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim,
                                        bool descending) const {
  return ember::sort(*this, stable, dim, descending);
}
Tensor Tensor::argsort(int64_t dim, bool descending) const {
  return ember::argsort(*this, dim, descending);
}
Tensor Tensor::argsort(bool stable, int64_t dim, bool descending) const {
  return ember::argsort(*this, stable, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return ember::topk(*this, k, dim, largest, sorted);
}

}  // namespace ember
