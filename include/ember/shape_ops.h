// Joining, splitting, gathering, rearranging and sorting: cat, stack, split, chunk, index_select,
// gather, scatter, masked_fill, one_hot, nonzero, masked_select, flip, repeat, tril, triu, sort,
// argsort, topk.
#pragma once

#include <optional>
#include <tuple>
#include <vector>

#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

EMBER_API Tensor cat(TensorList tensors, int64_t dim = 0);
EMBER_API Tensor stack(TensorList tensors, int64_t dim = 0);
EMBER_API std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim = 0);
EMBER_API std::vector<Tensor> split(const Tensor& x, IntArrayRef split_sizes, int64_t dim = 0);
EMBER_API std::vector<Tensor> split_with_sizes(const Tensor& x, IntArrayRef split_sizes,
                                               int64_t dim = 0);
EMBER_API std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim = 0);
// The slices along dim, as views (x.select(dim, i) for each i).
EMBER_API std::vector<Tensor> unbind(const Tensor& x, int64_t dim = 0);

EMBER_API Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index);
// sparse_grad is accepted for LibTorch's signature; the gradient is always dense.
EMBER_API Tensor gather(const Tensor& x, int64_t dim, const Tensor& index,
                        bool sparse_grad = false);
EMBER_API Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
EMBER_API Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Scalar& value);
EMBER_API Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
EMBER_API Tensor masked_fill(const Tensor& x, const Tensor& mask, Scalar value);
// The slices at `index` (int64, at most 1-D) along `dim` set to `value`.
EMBER_API Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index,
                            const Scalar& value);
EMBER_API Tensor one_hot(const Tensor& indices, int64_t num_classes = -1);
// The indices of the nonzero elements, int64 of shape [count, x.dim()] in row-major order. The
// count decides the result's shape, so on a GPU this waits for it, as in PyTorch.
EMBER_API Tensor nonzero(const Tensor& x);
// The elements of x where the bool mask (broadcast with x) is true, as a 1-D tensor; waits for
// the count on a GPU, as nonzero.
EMBER_API Tensor masked_select(const Tensor& x, const Tensor& mask);
// A copy with the order of the elements reversed along each of `dims`.
EMBER_API Tensor flip(const Tensor& x, IntArrayRef dims);
// A copy tiled `repeats[i]` times along dim i; extra leading repeats add leading dims
// (torch.Tensor.repeat, not repeat_interleave).
EMBER_API Tensor repeat(const Tensor& x, IntArrayRef repeats);
// The lower (tril) or upper (triu) triangle of the last two dims, the rest zeroed; `diagonal`
// shifts the boundary up (positive) or down (negative) from the main diagonal.
EMBER_API Tensor tril(const Tensor& x, int64_t diagonal = 0);
EMBER_API Tensor triu(const Tensor& x, int64_t diagonal = 0);

// (values, indices); stable sort, NaN sorts as the largest value, as in PyTorch. The `stable`
// forms exist for LibTorch's signatures: every sort is stable.
EMBER_API std::tuple<Tensor, Tensor> sort(const Tensor& x, int64_t dim = -1,
                                          bool descending = false);
EMBER_API std::tuple<Tensor, Tensor> sort(const Tensor& x, std::optional<bool> stable,
                                          int64_t dim = -1, bool descending = false);
EMBER_API Tensor argsort(const Tensor& x, int64_t dim = -1, bool descending = false);
EMBER_API Tensor argsort(const Tensor& x, bool stable, int64_t dim = -1, bool descending = false);
EMBER_API std::tuple<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim = -1,
                                          bool largest = true, bool sorted = true);

}  // namespace ember
