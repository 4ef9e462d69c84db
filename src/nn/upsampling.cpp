// F::interpolate and the Upsample module. Every mode but area is separable: each spatial dim is
// resampled in turn by index_select of source positions computed here on the CPU, weighted per
// output position (linear: 2 taps, bicubic: 4), with PyTorch 1.13's CPU kernels' source-index
// rules, so the values match PyTorch's and autograd and every device come from existing ops.
// Area is adaptive average pooling to the output size, as in PyTorch.
#include "ember/nn/upsampling.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/check.h"
#include "ember/enum.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/pool_ops.h"
#include "ember/shape_ops.h"
#include "ember/warning.h"
#include "nn/cubic.h"

namespace ember::nn {

namespace {

enum class UpsamplingTaps { Nearest, NearestExact, Linear, Cubic };

// PyTorch's compute_scales_value: 1 / scale_factor when one is used, else in / out. `scale` is
// the dim's scale factor, or 0 for none (as PyTorch, which treats a non-positive one as none).
template <typename T>
T upsampling_scale_value(double scale, int64_t in, int64_t out) {
  return scale > 0. ? static_cast<T>(1.0 / scale) : static_cast<T>(in) / static_cast<T>(out);
}

// PyTorch's area_pixel_compute_scale.
double upsampling_pixel_scale(int64_t in, int64_t out, bool align_corners, double scale) {
  if (align_corners)
    return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  return upsampling_scale_value<double>(scale, in, out);
}

// PyTorch's area_pixel_compute_source_index.
double upsampling_source_index(double scale, int64_t dst, bool align_corners, bool cubic) {
  if (align_corners) return scale * static_cast<double>(dst);
  const double src = scale * (static_cast<double>(dst) + 0.5) - 0.5;
  return (!cubic && src < 0) ? 0.0 : src;
}

// PyTorch's cubic convolution coefficients (A = -0.75) of the 4 taps at offset t in [0, 1).
void upsampling_cubic_coefficients(double coeffs[4], double t) {
  coeffs[0] = nn::detail::cubic_convolution2(t + 1.0);
  coeffs[1] = nn::detail::cubic_convolution1(t);
  coeffs[2] = nn::detail::cubic_convolution1(1.0 - t);
  coeffs[3] = nn::detail::cubic_convolution2(2.0 - t);
}

// Resamples dim `dim` of x (size in) to `out` positions.
Tensor upsampling_resample_dim(const Tensor& x, int64_t dim, int64_t out, UpsamplingTaps taps,
                               bool align_corners, double scale) {
  const int64_t in = x.size(dim);
  const size_t n = static_cast<size_t>(out);
  const int ntaps = taps == UpsamplingTaps::Cubic ? 4 : taps == UpsamplingTaps::Linear ? 2 : 1;
  std::vector<std::vector<int64_t>> index(static_cast<size_t>(ntaps), std::vector<int64_t>(n));
  std::vector<std::vector<double>> weight(static_cast<size_t>(ntaps), std::vector<double>(n));
  if (taps == UpsamplingTaps::Nearest || taps == UpsamplingTaps::NearestExact) {
    // PyTorch's HelperInterpNearest(Exact): float arithmetic.
    const float s = upsampling_scale_value<float>(scale, in, out);
    for (size_t o = 0; o < n; ++o) {
      const float fo = static_cast<float>(o);
      float src = taps == UpsamplingTaps::Nearest ? s * fo : s * (fo + 0.5f) - 0.5f;
      if (src < 0.f) src = 0.f;
      const float rounded =
          taps == UpsamplingTaps::Nearest ? std::floor(src) : std::floor(src + 0.5f);
      index[0][o] = std::min(static_cast<int64_t>(rounded), in - 1);
    }
  } else if (taps == UpsamplingTaps::Linear) {
    const double s = upsampling_pixel_scale(in, out, align_corners, scale);
    for (size_t o = 0; o < n; ++o) {
      if (out == in) {  // PyTorch copies when the size is unchanged, whatever the scale factor
        index[0][o] = index[1][o] = static_cast<int64_t>(o);
        weight[0][o] = 1;
        weight[1][o] = 0;
        continue;
      }
      const double real = upsampling_source_index(s, static_cast<int64_t>(o), align_corners, false);
      const int64_t i0 = static_cast<int64_t>(real);
      index[0][o] = i0;
      index[1][o] = i0 + (i0 < in - 1 ? 1 : 0);
      weight[1][o] = real - static_cast<double>(i0);
      weight[0][o] = 1.0 - weight[1][o];
    }
  } else {
    const double s = upsampling_pixel_scale(in, out, align_corners, scale);
    for (size_t o = 0; o < n; ++o) {
      const double real = upsampling_source_index(s, static_cast<int64_t>(o), align_corners, true);
      // floorf, as PyTorch's kernel
      const int64_t i = static_cast<int64_t>(std::floor(static_cast<float>(real)));
      double coeffs[4];
      upsampling_cubic_coefficients(coeffs, real - static_cast<double>(i));
      for (size_t j = 0; j < 4; ++j) {
        index[j][o] = std::clamp<int64_t>(i - 1 + static_cast<int64_t>(j), 0, in - 1);
        weight[j][o] = coeffs[j];
      }
    }
  }
  const TensorOptions index_options = TensorOptions(kInt64).device(x.device());
  if (ntaps == 1) return index_select(x, dim, tensor(index[0], index_options));
  // Weights shaped [out, 1, ...] to broadcast along dim.
  std::vector<int64_t> weight_shape(static_cast<size_t>(x.dim() - dim), 1);
  weight_shape[0] = out;
  Tensor result;
  for (size_t j = 0; j < static_cast<size_t>(ntaps); ++j) {
    const Tensor w = from_blob(weight[j].data(), {out}, TensorOptions(ScalarType::Double))
                         .to(x.device(), x.scalar_type(), false, true)
                         .reshape(weight_shape);
    const Tensor term = index_select(x, dim, tensor(index[j], index_options)) * w;
    result = result.defined() ? result + term : term;
  }
  return result;
}

std::string upsampling_mode_word(const functional::InterpolateFuncOptions::mode_t& mode) {
  if (std::holds_alternative<enumtype::kNearest>(mode)) return "nearest";
  if (std::holds_alternative<enumtype::kLinear>(mode)) return "linear";
  if (std::holds_alternative<enumtype::kBilinear>(mode)) return "bilinear";
  if (std::holds_alternative<enumtype::kBicubic>(mode)) return "bicubic";
  if (std::holds_alternative<enumtype::kTrilinear>(mode)) return "trilinear";
  if (std::holds_alternative<enumtype::kArea>(mode)) return "area";
  return "nearest-exact";
}

// [2, 3] or [1.5, 2]: sizes (int64_t) and scale factors (double), as the messages and
// pretty_print write them.
template <typename T>
std::string upsampling_list_str(const std::vector<T>& values) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << values[i];
  os << "]";
  return os.str();
}

}  // namespace

Tensor functional::detail::interpolate(const Tensor& input,
                                       const std::optional<std::vector<int64_t>>& size,
                                       const std::optional<std::vector<double>>& scale_factor,
                                       InterpolateFuncOptions::mode_t mode,
                                       std::optional<bool> align_corners,
                                       std::optional<bool> recompute_scale_factor, bool antialias) {
  const bool nearest = std::holds_alternative<enumtype::kNearest>(mode);
  const bool nearest_exact = std::holds_alternative<enumtype::kNearestExact>(mode);
  const bool area = std::holds_alternative<enumtype::kArea>(mode);
  const bool cubic = std::holds_alternative<enumtype::kBicubic>(mode);
  const std::string mode_name = enumtype::get_enum_name(mode);
  if (nearest || area) {
    EMBER_CHECK_T(ValueError, !align_corners.has_value(),
                  "[interpolate] align_corners option can only be set with the interpolating "
                  "modes: linear | bilinear | bicubic | trilinear (got mode ",
                  mode_name, "); leave align_corners unset");
  } else if (!nearest_exact && !align_corners.has_value()) {
    warn(Warning(UserWarning(), {"interpolate", __FILE__, static_cast<uint32_t>(__LINE__)},
                 "Default upsampling behavior when mode=" + mode_name +
                     " is changed to align_corners=False since 0.4.0. Please specify "
                     "align_corners=True if the old behavior is desired. See the documentation of "
                     "nn.Upsample for details.",
                 false));
  }
  const bool corners = align_corners.value_or(false);
  const bool bilinear = std::holds_alternative<enumtype::kBilinear>(mode);
  EMBER_CHECK_T(ValueError, !antialias || (input.dim() == 4 && (bilinear || cubic)),
                "[interpolate] Anti-alias option is only supported for bilinear and bicubic "
                "modes (with 4D input); got mode ",
                mode_name, " and ", input.dim(), "D input");
  EMBER_CHECK_T(ValueError, !antialias,
                "[interpolate] antialias=true is not implemented in ember; resample with "
                "antialias=false (after low-pass filtering the input if it is downsampled)");

  // The spatial rank each mode takes.
  const int64_t dim = input.dim();
  int64_t want = 0;  // 0: any of 1, 2, 3
  if (std::holds_alternative<enumtype::kLinear>(mode)) want = 1;
  if (bilinear || cubic) want = 2;
  if (std::holds_alternative<enumtype::kTrilinear>(mode)) want = 3;
  const std::string word = upsampling_mode_word(mode);
  if (want != 0 && dim >= 3 && dim <= 5) {
    EMBER_CHECK_T(ValueError, dim == want + 2, "[interpolate] Got ", dim, "D input, but ", word,
                  " mode needs ", want + 2, "D input ([N, C", want >= 3 ? ", D" : "",
                  want >= 2 ? ", H" : "", ", W])");
  }
  EMBER_CHECK_T(ValueError, dim >= 3 && dim <= 5,
                "[interpolate] Input Error: Only 3D, 4D and 5D input Tensors supported (got ", dim,
                "D) for the modes: nearest | linear | bilinear | bicubic | trilinear (got ",
                mode_name, "); give [N, C, *spatial], adding a batch dim with unsqueeze(0)");

  // LibTorch's _interp_output_size.
  const int64_t spatial = dim - 2;
  EMBER_CHECK_T(ValueError, size.has_value() || scale_factor.has_value(),
                "[interpolate] either size or scale_factor should be defined");
  EMBER_CHECK_T(ValueError, !(size.has_value() && scale_factor.has_value()),
                "[interpolate] only one of size or scale_factor should be defined");
  std::vector<int64_t> out_size;
  if (scale_factor.has_value()) {
    EMBER_CHECK_T(ValueError, static_cast<int64_t>(scale_factor->size()) == spatial,
                  "[interpolate] scale_factor shape must match input shape. Input is ", spatial,
                  "D, scale_factor size is ", upsampling_list_str(*scale_factor),
                  "; give one scale factor per spatial dim");
    bool fractional = false;
    for (double s : *scale_factor) {
      EMBER_CHECK_T(ValueError, std::isfinite(s) && s > 0,
                    "[interpolate] scale_factor must be finite and positive, got ",
                    upsampling_list_str(*scale_factor));
      fractional = fractional || std::floor(s) != s;
    }
    if (!recompute_scale_factor.has_value() && fractional)
      warn(Warning(UserWarning(), {"interpolate", __FILE__, static_cast<uint32_t>(__LINE__)},
                   "The default behavior for interpolate/upsample with float scale_factor changed "
                   "in 1.6.0 to align with other frameworks/libraries, and uses scale_factor "
                   "directly, instead of relying on the computed output size. If you wish to keep "
                   "the old behavior, please set recompute_scale_factor=True. See the "
                   "documentation of nn.Upsample for details. ",
                   false));
    for (int64_t i = 0; i < spatial; ++i)
      out_size.push_back(static_cast<int64_t>(std::floor(static_cast<double>(input.size(i + 2)) *
                                                         (*scale_factor)[static_cast<size_t>(i)])));
  } else {
    EMBER_CHECK_T(ValueError, static_cast<int64_t>(size->size()) == spatial,
                  "[interpolate] size has ", size->size(), " entries ", upsampling_list_str(*size),
                  " but the ", dim, "D input has ", spatial,
                  " spatial dims; give one output size per spatial dim");
    out_size = *size;
  }
  bool positive = true;
  for (int64_t i = 0; i < spatial; ++i)
    positive = positive && input.size(i + 2) > 0 && out_size[static_cast<size_t>(i)] > 0;
  EMBER_CHECK_T(
      ValueError, positive,
      "[interpolate] Input and output sizes should be greater than 0, but got input "
      "spatial sizes ",
      upsampling_list_str(std::vector<int64_t>(input.sizes().begin() + 2, input.sizes().end())),
      " and output size ", upsampling_list_str(out_size));

  if (area) {
    if (spatial == 1) return ember::adaptive_avg_pool1d(input, out_size);
    if (spatial == 2) return ember::adaptive_avg_pool2d(input, out_size);
    return ember::adaptive_avg_pool3d(input, out_size);
  }
  EMBER_CHECK_T(TypeError, nearest || nearest_exact || isFloatingType(input.scalar_type()),
                "[interpolate] mode ", mode_name, " needs a floating-point input, got ",
                input.scalar_type(), "; convert it with .to(kFloat)");
  const UpsamplingTaps taps = nearest         ? UpsamplingTaps::Nearest
                              : nearest_exact ? UpsamplingTaps::NearestExact
                              : cubic         ? UpsamplingTaps::Cubic
                                              : UpsamplingTaps::Linear;
  const bool use_scales = scale_factor.has_value() && !recompute_scale_factor.value_or(false);
  Tensor out = input;
  for (int64_t i = 0; i < spatial; ++i) {
    const double scale = use_scales ? (*scale_factor)[static_cast<size_t>(i)] : 0.0;
    out =
        upsampling_resample_dim(out, i + 2, out_size[static_cast<size_t>(i)], taps, corners, scale);
  }
  return out;
}

void UpsampleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Upsample(";
  if (options.scale_factor().has_value()) {
    stream << "scale_factor=" << upsampling_list_str(*options.scale_factor());
  } else if (options.size().has_value()) {
    stream << "size=" << upsampling_list_str(*options.size());
  } else {
    stream << "size=None";
  }
  stream << ", mode=" << enumtype::get_enum_name(options.mode()) << ")";
}

Tensor UpsampleImpl::forward(const Tensor& input) {
  const functional::InterpolateFuncOptions::mode_t mode = std::visit(
      [](auto m) { return functional::InterpolateFuncOptions::mode_t(m); }, options.mode());
  return functional::detail::interpolate(input, options.size(), options.scale_factor(), mode,
                                         options.align_corners(), std::nullopt, false);
}

}  // namespace ember::nn
