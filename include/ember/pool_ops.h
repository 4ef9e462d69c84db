// Pooling with PyTorch's semantics and ATen's signatures (at::max_pool2d, at::avg_pool3d,
// at::adaptive_max_pool2d, at::max_unpool2d, ...): inputs are [N, C, *spatial] or unbatched
// [C, *spatial], floating types, every op differentiable. Window arguments take one value (for
// every dim) or one per dim; an empty stride means the kernel size.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "ember/array_ref.h"
#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember {

// Max pooling; padding counts as -inf. The gradient goes to the (first) maximum of each window;
// the _with_indices forms also return its flat position within the input's spatial plane
// (w for 1d, h * W + w for 2d, (d * H + h) * W + w for 3d), as PyTorch's.
EMBER_API Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
EMBER_API std::tuple<Tensor, Tensor> max_pool1d_with_indices(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
    IntArrayRef dilation = 1, bool ceil_mode = false);
EMBER_API Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
EMBER_API std::tuple<Tensor, Tensor> max_pool2d_with_indices(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
    IntArrayRef dilation = 1, bool ceil_mode = false);
EMBER_API Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
EMBER_API std::tuple<Tensor, Tensor> max_pool3d_with_indices(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
    IntArrayRef dilation = 1, bool ceil_mode = false);

// Average pooling. Each window divides by divisor_override when given, else by its size clipped
// to the padded input (count_include_pad) or to the input; ceil_mode keeps a last, partial
// window that starts inside the input or its left padding.
EMBER_API Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, bool ceil_mode = false,
                            bool count_include_pad = true);
EMBER_API Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, bool ceil_mode = false,
                            bool count_include_pad = true,
                            std::optional<int64_t> divisor_override = std::nullopt);
EMBER_API Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, bool ceil_mode = false,
                            bool count_include_pad = true,
                            std::optional<int64_t> divisor_override = std::nullopt);

// Adaptive pooling to output_size (one value per pooled dim): output o of a dim of size `in`
// pools [floor(o * in / out), ceil((o + 1) * in / out)). The max forms return the values and
// their flat positions, as max_pool*d_with_indices.
EMBER_API Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size);
EMBER_API Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
EMBER_API Tensor adaptive_avg_pool3d(const Tensor& self, IntArrayRef output_size);
EMBER_API std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self,
                                                         IntArrayRef output_size);
EMBER_API std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self,
                                                         IntArrayRef output_size);
EMBER_API std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self,
                                                         IntArrayRef output_size);

// The inverse of max pooling: a zero tensor of [*, C, *output_size] with each input value at its
// flat position `indices` (max_pool*d_with_indices' second result). max_unpool3d checks stride
// and padding, as ATen's, and uses neither.
EMBER_API Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size);
EMBER_API Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                              IntArrayRef stride, IntArrayRef padding);

}  // namespace ember
