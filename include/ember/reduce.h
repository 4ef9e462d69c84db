// Reductions over all elements or chosen dims (keepdim as in PyTorch), softmax and the scans
// (cumsum, cumprod).
#pragma once

#include <optional>
#include <tuple>

#include "ember/tensor.h"

namespace ember {

// Empty `dims` means every dim. Negative dims count from the end.
EMBER_API Tensor sum(const Tensor& x, std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor sum(const Tensor& x, IntArrayRef dims, bool keepdim = false,
                     std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor mean(const Tensor& x);
EMBER_API Tensor mean(const Tensor& x, IntArrayRef dims, bool keepdim = false);
EMBER_API Tensor prod(const Tensor& x, std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor prod(const Tensor& x, int64_t dim, bool keepdim = false,
                      std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor amax(const Tensor& x, IntArrayRef dims = {}, bool keepdim = false);
EMBER_API Tensor amin(const Tensor& x, IntArrayRef dims = {}, bool keepdim = false);
EMBER_API Tensor max(const Tensor& x);  // over everything
EMBER_API Tensor min(const Tensor& x);
// (values, indices) along one dim, as torch.max(x, dim).
EMBER_API std::tuple<Tensor, Tensor> max(const Tensor& x, int64_t dim, bool keepdim = false);
EMBER_API std::tuple<Tensor, Tensor> min(const Tensor& x, int64_t dim, bool keepdim = false);
// Elementwise, as maximum and minimum.
EMBER_API Tensor max(const Tensor& x, const Tensor& other);
EMBER_API Tensor min(const Tensor& x, const Tensor& other);
EMBER_API Tensor argmax(const Tensor& x, std::optional<int64_t> dim = std::nullopt,
                        bool keepdim = false);
EMBER_API Tensor argmin(const Tensor& x, std::optional<int64_t> dim = std::nullopt,
                        bool keepdim = false);
// Bessel-corrected unless `unbiased` is false (torch.var); `correction`, a Scalar as in
// PyTorch 2, divides by N - correction. Empty `dim` means every dim. As in LibTorch, an int
// (var(x, 1), var(x, {1})) is a dim, through the int overloads (int -> bool would outrank
// int -> IntArrayRef, gh-40287), while var(x, true) and var(x, false) reduce everything.
EMBER_API Tensor var(const Tensor& x, bool unbiased = true);
EMBER_API Tensor var(const Tensor& x, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
EMBER_API Tensor var(const Tensor& x, IntArrayRef dim, const std::optional<Scalar>& correction,
                     bool keepdim = false);
EMBER_API Tensor var(const Tensor& x, int dim);
EMBER_API Tensor std(const Tensor& x, bool unbiased = true);
EMBER_API Tensor std(const Tensor& x, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
EMBER_API Tensor std(const Tensor& x, IntArrayRef dim, const std::optional<Scalar>& correction,
                     bool keepdim = false);
EMBER_API Tensor std(const Tensor& x, int dim);
EMBER_API Tensor norm(const Tensor& x, double p = 2.0, IntArrayRef dims = {}, bool keepdim = false);
EMBER_API Tensor all(const Tensor& x);
EMBER_API Tensor all(const Tensor& x, int64_t dim, bool keepdim = false);
EMBER_API Tensor any(const Tensor& x);
EMBER_API Tensor any(const Tensor& x, int64_t dim, bool keepdim = false);
EMBER_API Tensor logsumexp(const Tensor& x, IntArrayRef dims, bool keepdim = false);
// Integers and bool scan into int64 unless `dtype` is given.
EMBER_API Tensor cumsum(const Tensor& x, int64_t dim,
                        std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor cumprod(const Tensor& x, int64_t dim,
                         std::optional<ScalarType> dtype = std::nullopt);

EMBER_API Tensor softmax(const Tensor& x, int64_t dim,
                         std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor log_softmax(const Tensor& x, int64_t dim,
                             std::optional<ScalarType> dtype = std::nullopt);

}  // namespace ember
