// Pooling composed from ember ops over windows gathered along each pooled dim (Note [Pooling by
// gathered windows]): the 3-d pools, every adaptive pool, and the divisors of every average pool.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/array_ref.h"
#include "ember/scalar.h"
#include "ember/tensor.h"
#include "ops/window_args.h"

namespace ember::ops {

// Note [Pooling by gathered windows]
// A pool without a kernel of its own is built from ops that already run on every device and
// carry autograd. Along each pooled dim, a PoolAxis names the input position that output o reads
// at tap t, or the pad slot: one element of the pad value appended after the dim's end. One
// index_select per dim with those tables gathers every window into [..., out_1..out_D, taps],
// where sliding windows (padding, dilation, ceil_mode) and adaptive ones (of unequal lengths, the
// short ones topped up with the pad slot) look alike.
// - An average is the sum over the taps divided by the window's divisor, which is separable: the
//   product of one count per dim (PyTorch's clipped window size, with or without the padding).
// - A maximum is an argmax over the taps, mapped to flat input positions by gathering an arange
//   through the same tables, then a gather of the input at those positions: the gradient goes to
//   the first maximum of each window, as PyTorch's max pooling sends it, through gather's
//   backward.
struct PoolAxis {
  int64_t in = 0, out = 0, taps = 0;
  std::vector<int64_t> source;  // [out * taps]: the input position read, or `in` (the pad slot)
  std::vector<int64_t> count;   // [out]: this dim's factor of the window's divisor
};

// PyTorch's pooling_output_shape: the number of windows along a dim of size `in`.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil);

// The windows of a sliding pool along one dim; count is the window's length clipped to the
// padded input (count_include_pad) or to the input.
PoolAxis sliding_axis(int64_t in, int64_t kernel, int64_t stride, int64_t pad, int64_t dilation,
                      bool ceil_mode, bool count_include_pad);
// PyTorch's adaptive windows: [floor(o * in / out), ceil((o + 1) * in / out)).
PoolAxis adaptive_axis(int64_t in, int64_t out);

// A floating input of dims + 1 (unbatched) or dims + 2 dimensions, none of the pooled ones empty.
void check_pool_input(const char* op, const Tensor& input, size_t dims);
// The sliding axes of a pool over input's last kernel_size.size() dims, checked as PyTorch does
// (padding at most half the effective kernel, at least one output); stride {} = kernel_size.
std::vector<PoolAxis> sliding_axes(const char* op, const Tensor& input, size_t dims,
                                   IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                                   IntArrayRef dilation, bool ceil_mode, bool count_include_pad);

// x [..., in_1..in_D] -> [..., out_1..out_D, taps_1 * ... * taps_D].
Tensor gather_windows(const Tensor& x, const std::vector<PoolAxis>& axes, const Scalar& pad_value);
// [out_1..out_D] on x's device and dtype: the product of the axes' counts, or divisor_override.
Tensor window_divisor(const Tensor& x, const std::vector<PoolAxis>& axes,
                      std::optional<int64_t> divisor_override);
// Every window's average, [..., out_1..out_D].
Tensor average_windows(const Tensor& x, const std::vector<PoolAxis>& axes,
                       std::optional<int64_t> divisor_override);
// Every window's maximum and its flat position among x's pooled dims, [..., out_1..out_D] each.
std::tuple<Tensor, Tensor> max_windows(const Tensor& x, const std::vector<PoolAxis>& axes);

}  // namespace ember::ops
