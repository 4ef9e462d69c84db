// Joining, splitting, gathering and sorting: cat, stack, split, chunk, index_select, gather,
// scatter, masked_fill, one_hot, sort, argsort, topk.
#pragma once

#include <tuple>
#include <vector>

#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

EMBER_API Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
EMBER_API Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
EMBER_API std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim = 0);
EMBER_API std::vector<Tensor> split(const Tensor& x, IntArrayRef split_sizes, int64_t dim = 0);
EMBER_API std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim = 0);

EMBER_API Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index);
EMBER_API Tensor gather(const Tensor& x, int64_t dim, const Tensor& index);
EMBER_API Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
EMBER_API Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, Scalar value);
EMBER_API Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
EMBER_API Tensor masked_fill(const Tensor& x, const Tensor& mask, Scalar value);
EMBER_API Tensor one_hot(const Tensor& indices, int64_t num_classes = -1);

// (values, indices); stable sort, NaN sorts as the largest value, as in PyTorch.
EMBER_API std::tuple<Tensor, Tensor> sort(const Tensor& x, int64_t dim = -1,
                                          bool descending = false);
EMBER_API Tensor argsort(const Tensor& x, int64_t dim = -1, bool descending = false);
EMBER_API std::tuple<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim = -1,
                                          bool largest = true, bool sorted = true);

}  // namespace ember
