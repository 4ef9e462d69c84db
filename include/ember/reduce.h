// Reductions over all elements or chosen dims (keepdim as in PyTorch), softmax and cumsum.
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
EMBER_API Tensor argmax(const Tensor& x, std::optional<int64_t> dim = std::nullopt,
                        bool keepdim = false);
EMBER_API Tensor argmin(const Tensor& x, std::optional<int64_t> dim = std::nullopt,
                        bool keepdim = false);
// Bessel-corrected by default (correction = 1), as torch.var.
EMBER_API Tensor var(const Tensor& x, IntArrayRef dims = {}, int64_t correction = 1,
                     bool keepdim = false);
EMBER_API Tensor std(const Tensor& x, IntArrayRef dims = {}, int64_t correction = 1,
                     bool keepdim = false);
EMBER_API Tensor norm(const Tensor& x, double p = 2.0, IntArrayRef dims = {}, bool keepdim = false);
EMBER_API Tensor all(const Tensor& x);
EMBER_API Tensor all(const Tensor& x, int64_t dim, bool keepdim = false);
EMBER_API Tensor any(const Tensor& x);
EMBER_API Tensor any(const Tensor& x, int64_t dim, bool keepdim = false);
EMBER_API Tensor logsumexp(const Tensor& x, IntArrayRef dims, bool keepdim = false);
EMBER_API Tensor cumsum(const Tensor& x, int64_t dim,
                        std::optional<ScalarType> dtype = std::nullopt);

EMBER_API Tensor softmax(const Tensor& x, int64_t dim,
                         std::optional<ScalarType> dtype = std::nullopt);
EMBER_API Tensor log_softmax(const Tensor& x, int64_t dim,
                             std::optional<ScalarType> dtype = std::nullopt);

}  // namespace ember
