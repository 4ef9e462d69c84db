// embedding: index_select of weight's rows (under NoGradGuard) recorded as EmbeddingBackward0,
// whose formula scatter-adds each gradient row into the row it came from (repeated indices
// accumulate) and skips padding_idx.
#include <vector>

#include "autograd/functions/index.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "kernels/shape_stubs.h"
#include "kernels/tensor_iter.h"
#include "ops/padding_idx.h"

namespace ember {
namespace {

[[noreturn]] void row_out_of_range(const kernels::IndexBounds& bounds, int64_t value,
                                   const char* note) {
  detail::fail<IndexError>("[embedding] index ", value,
                           " is out of range for an embedding table of ", bounds.size,
                           " rows (num_embeddings = ", bounds.size, "; valid indices are 0 to ",
                           bounds.size - 1, ")", note);
}

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, std::optional<int64_t> padding_idx) {
  EMBER_CHECK_T(ValueError, weight.defined() && indices.defined(),
                "[embedding] weight and indices must be defined tensors");
  kernels::common_device("embedding", {&weight, &indices}, {"weight", "indices"});
  EMBER_CHECK_T(ValueError, weight.dim() == 2,
                "[embedding] expected a 2-D weight [num_embeddings, embedding_dim], but got "
                "weight of size ",
                weight.sizes());
  EMBER_CHECK_T(TypeError, indices.scalar_type() == kInt64 || indices.scalar_type() == kInt32,
                "[embedding] Expected tensor for argument 'indices' to have one of the following "
                "scalar types: Long, Int; but got ",
                indices.scalar_type(), " instead; convert it with .to(kInt64)");
  const int64_t rows = weight.size(0), dim = weight.size(1);
  const std::optional<int64_t> pad = ops::normalize_padding_idx("embedding", padding_idx, rows);
  Tensor flat = indices.reshape({-1}).to(kInt64);
  kernels::check_indices_stub(flat.device().type(), flat,
                              {"embedding", 0, rows, &row_out_of_range});
  std::vector<int64_t> shape = indices.sizes().vec();
  shape.push_back(dim);
  Tensor out;
  {
    autograd::NoGradGuard no_grad;
    out = index_select(weight, 0, flat).view(shape);
  }
  if (autograd::needs_grad(weight))
    autograd::record({out}, {weight}, {flat},
                     autograd::functions::EmbeddingBackward0{rows, dim, pad});
  return out;
}

}  // namespace ember
