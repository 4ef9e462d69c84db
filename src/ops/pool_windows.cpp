// Windows gathered along each pooled dim, and the averages and maxima over them (Note [Pooling by
// gathered windows] in ops/pool_windows.h).
#include "ops/pool_windows.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember::ops {

int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;  // the last window must start inside
  return out;
}

PoolAxis sliding_axis(int64_t in, int64_t kernel, int64_t stride, int64_t pad, int64_t dilation,
                      bool ceil_mode, bool count_include_pad) {
  PoolAxis axis{in, pooled_size(in, kernel, pad, stride, dilation, ceil_mode), kernel, {}, {}};
  for (int64_t o = 0; o < axis.out; ++o) {
    const int64_t start = o * stride - pad;
    for (int64_t t = 0; t < kernel; ++t) {
      const int64_t at = start + t * dilation;
      axis.source.push_back(at >= 0 && at < in ? at : in);
    }
    // PyTorch's avg_pool divisor: the window clipped to the padded input, or to the input.
    const int64_t end = std::min(start + kernel, in + pad);
    axis.count.push_back(count_include_pad ? end - start
                                           : std::min(end, in) - std::max<int64_t>(start, 0));
  }
  return axis;
}

PoolAxis adaptive_axis(int64_t in, int64_t out) {
  PoolAxis axis{in, out, 0, {}, {}};
  std::vector<int64_t> starts;
  for (int64_t o = 0; o < out; ++o) {
    starts.push_back(o * in / out);
    axis.count.push_back(((o + 1) * in + out - 1) / out - starts.back());
    axis.taps = std::max(axis.taps, axis.count.back());
  }
  for (int64_t o = 0; o < out; ++o)
    for (int64_t t = 0; t < axis.taps; ++t)
      axis.source.push_back(t < axis.count[o] ? starts[o] + t : in);
  return axis;
}

void check_pool_input(const char* op, const Tensor& input, size_t dims) {
  const int64_t d = static_cast<int64_t>(dims);
  EMBER_CHECK_T(ValueError, input.defined(), "[", op, "] input is an undefined tensor");
  EMBER_CHECK_T(ValueError, input.dim() == d + 1 || input.dim() == d + 2, "[", op, "] Expected ",
                d + 1, "D (unbatched) or ", d + 2, "D (batched) input, but got input of size ",
                input.sizes(), " (", input.dim(), "-D)");
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()), "[", op,
                "] expected a floating-point input, got ", input.scalar_type());
  for (int64_t i = input.dim() - d - 1; i < input.dim(); ++i)
    EMBER_CHECK_T(ValueError, input.size(i) > 0, "[", op,
                  "] Expected input to have non-zero size for non-batch dimensions, but input "
                  "has sizes ",
                  input.sizes(), " with dimension ", i, " being empty");
}

std::vector<PoolAxis> sliding_axes(const char* op, const Tensor& input, size_t dims,
                                   IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                                   IntArrayRef dilation, bool ceil_mode, bool count_include_pad) {
  const std::vector<int64_t> k = window_arg(op, "kernel_size", kernel_size, dims, 1);
  const std::vector<int64_t> s = stride.empty() ? k : window_arg(op, "stride", stride, dims, 1);
  const std::vector<int64_t> p = window_arg(op, "padding", padding, dims, 0);
  const std::vector<int64_t> d = window_arg(op, "dilation", dilation, dims, 1);
  std::vector<PoolAxis> axes;
  std::vector<int64_t> outs;
  for (size_t i = 0; i < dims; ++i) {
    EMBER_CHECK_T(ValueError, p[i] <= (d[i] * (k[i] - 1) + 1) / 2, "[", op,
                  "] pad should be at most half of effective kernel size, but got pad=", p[i],
                  ", kernel_size=", k[i], " and dilation=", d[i]);
    const int64_t in = input.size(input.dim() - static_cast<int64_t>(dims - i));
    axes.push_back(sliding_axis(in, k[i], s[i], p[i], d[i], ceil_mode, count_include_pad));
    outs.push_back(axes.back().out);
  }
  EMBER_CHECK_T(ValueError, std::all_of(outs.begin(), outs.end(), [](int64_t o) { return o > 0; }),
                "[", op, "] Given input size ", input.sizes(), ", calculated output size ",
                IntArrayRef(outs), " is too small: kernel_size ", kernel_size, " with dilation ",
                dilation, " and padding ", padding,
                " does not fit; use a smaller kernel or more padding");
  return axes;
}

Tensor gather_windows(const Tensor& x, const std::vector<PoolAxis>& axes, const Scalar& pad_value) {
  const int64_t lead = x.dim() - static_cast<int64_t>(axes.size());
  std::vector<int64_t> split(x.sizes().begin(), x.sizes().begin() + lead), order, shape = split;
  for (int64_t d = 0; d < lead; ++d) order.push_back(d);
  Tensor windows = x;
  int64_t taps = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    const PoolAxis& axis = axes[i];
    const int64_t dim = lead + static_cast<int64_t>(i);
    if (std::find(axis.source.begin(), axis.source.end(), axis.in) != axis.source.end()) {
      std::vector<int64_t> slot = windows.sizes().vec();
      slot[dim] = 1;
      windows = cat({windows, full(slot, pad_value, windows.options())}, dim);
    }
    windows =
        windows.index_select(dim, tensor(axis.source, TensorOptions(kInt64).device(x.device())));
    split.insert(split.end(), {axis.out, axis.taps});
    order.push_back(lead + 2 * static_cast<int64_t>(i));
    shape.push_back(axis.out);
    taps *= axis.taps;
  }
  for (size_t i = 0; i < axes.size(); ++i) order.push_back(lead + 2 * static_cast<int64_t>(i) + 1);
  shape.push_back(taps);
  return windows.view(split).permute(order).reshape(shape);
}

Tensor window_divisor(const Tensor& x, const std::vector<PoolAxis>& axes,
                      std::optional<int64_t> divisor_override) {
  std::vector<int64_t> outs;
  for (const PoolAxis& axis : axes) outs.push_back(axis.out);
  if (divisor_override) return full(outs, *divisor_override, x.options());
  std::vector<double> divisor{1.0};  // the outer product of the axes' counts
  for (const PoolAxis& axis : axes) {
    std::vector<double> next;
    for (double before : divisor)
      for (int64_t count : axis.count) next.push_back(before * static_cast<double>(count));
    divisor = std::move(next);
  }
  return tensor(divisor, TensorOptions(kFloat64)).to(x.device(), x.scalar_type()).view(outs);
}

Tensor average_windows(const Tensor& x, const std::vector<PoolAxis>& axes,
                       std::optional<int64_t> divisor_override) {
  return gather_windows(x, axes, 0).sum({-1}) / window_divisor(x, axes, divisor_override);
}

std::tuple<Tensor, Tensor> max_windows(const Tensor& x, const std::vector<PoolAxis>& axes) {
  const int64_t lead = x.dim() - static_cast<int64_t>(axes.size());
  Tensor indices;
  {
    autograd::NoGradGuard no_grad;  // the values below are gathered with autograd
    Tensor windows = gather_windows(x, axes, -std::numeric_limits<double>::infinity());
    const std::vector<int64_t> pooled(x.sizes().begin() + lead, x.sizes().end());
    int64_t plane = 1;
    for (int64_t size : pooled) plane *= size;
    Tensor positions = gather_windows(
        arange(plane, TensorOptions(kInt64).device(x.device())).view(pooled), axes, -1);
    // PyTorch's max pools keep a window's first maximum but its last NaN (`(val > maxval) ||
    // isnan(val)`), and argmax gives the first of either: a window with a NaN takes the last.
    const Tensor nan = windows.isnan();
    const Tensor last_nan =
        (windows.size(-1) - 1) - nan.flip({-1}).to(kUInt8).argmax(-1, true);  // a flipped argmax
    const Tensor taken = where(nan.any(-1, true), last_nan, windows.argmax(-1, true));
    const Tensor at = positions.expand(windows.sizes());
    const Tensor chosen = at.gather(-1, taken);
    // A window whose values are all -inf, as its padding is, may have chosen a padding tap
    // (position -1): PyTorch's index stays at the window's first tap inside the input.
    const Tensor first_inside = at.gather(-1, (at < 0).to(kUInt8).argmin(-1, true));
    indices = where(chosen < 0, first_inside, chosen).squeeze(-1);
  }
  Tensor values = x.flatten(lead).gather(-1, indices.flatten(lead)).view(indices.sizes());
  return {values, indices};
}

}  // namespace ember::ops
