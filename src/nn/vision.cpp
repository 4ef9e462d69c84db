// F::affine_grid and F::grid_sample (and ATen's affine_grid_generator and grid_sampler behind
// them), composed of differentiable tensor ops: the gradients with respect to the input and the
// grid come from autograd, and every device runs them. The math is PyTorch 1.13's
// (ATen/native/AffineGridGenerator.cpp, GridSampler.h): the same unnormalization, clipping and
// reflection of the source coordinates, the same taps, weights and zero padding.
#include "ember/nn/functional/vision.h"

#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/ops.h"
#include "ember/shape_ops.h"
#include "ember/string_util.h"
#include "ember/warning.h"
#include "nn/cubic.h"

namespace ember {

namespace {

// PyTorch's linspace_from_neg_one: n points over [-1, 1] (align_corners) or the n pixel centres
// of that span ((n - 1) / n of it); one point is 0.
Tensor grid_linspace_from_neg_one(int64_t steps, bool align_corners, TensorOptions options) {
  if (steps <= 1) return zeros({1}, options);
  Tensor range = linspace(-1, 1, steps, options);
  if (!align_corners) {
    range = range * static_cast<double>(steps - 1) / static_cast<double>(steps);
  }
  return range;
}

// grid_sampler_unnormalize: a normalized coordinate in [-1, 1] as a pixel position.
Tensor grid_unnormalize(const Tensor& coord, int64_t size, bool align_corners) {
  if (align_corners) return ((coord + 1) / 2) * static_cast<double>(size - 1);
  return ((coord + 1) * static_cast<double>(size) - 1) / 2;
}

// clip_coordinates, with PyTorch's gradient (clip_coordinates_set_grad): 1 strictly inside
// (0, size - 1), 0 at either end and beyond.
Tensor grid_clip_coordinates(const Tensor& in, int64_t size) {
  const double high = static_cast<double>(size - 1);
  return where(in <= 0, 0.0, where(in >= high, high, in));
}

// reflect_coordinates: `in` reflected off the bounds twice_low / 2 and twice_high / 2 until it
// lies between them (a triangle wave), with the gradient +-1 of reflect_coordinates_set_grad.
Tensor grid_reflect_coordinates(const Tensor& in, int64_t twice_low, int64_t twice_high) {
  // A single position: 0, with a zero gradient that keeps the grid in the graph (PyTorch's
  // output requires grad whenever the grid does).
  if (twice_low == twice_high) return where(isfinite(in), in * 0.0, 0.0);
  const double low = static_cast<double>(twice_low) / 2;
  const double span = static_cast<double>(twice_high - twice_low) / 2;
  Tensor shifted = in - low;
  shifted = where(shifted < 0, -shifted, shifted);
  const Tensor extra = fmod(shifted, span);
  const Tensor flips = floor(shifted.detach() / span);
  return where(fmod(flips, 2) == 0, extra + low, (span - extra) + low);
}

// compute_coordinates: a pixel position after the padding mode (0 zeros, 1 border,
// 2 reflection).
Tensor grid_pad_coordinates(const Tensor& coord, int64_t size, int64_t padding_mode,
                            bool align_corners) {
  if (padding_mode == 1) return grid_clip_coordinates(coord, size);
  if (padding_mode == 2) {
    const Tensor reflected = align_corners ? grid_reflect_coordinates(coord, 0, 2 * (size - 1))
                                           : grid_reflect_coordinates(coord, -1, 2 * size - 1);
    return grid_clip_coordinates(reflected, size);
  }
  return coord;
}

// The input [N, C, P] (P the flattened spatial positions) read at integer-valued positions
// `taps` (one floating [N, Q] tensor per spatial dim, in the input's order): [N, C, Q] with the
// values at the clamped positions, and the [N, 1, Q] mask of the taps inside the input.
std::pair<Tensor, Tensor> grid_read_taps(const Tensor& flat, const std::vector<Tensor>& taps,
                                         IntArrayRef spatial) {
  Tensor inside;
  for (size_t d = 0; d < taps.size(); ++d) {
    const Tensor ok = (taps[d] >= 0) & (taps[d] <= static_cast<double>(spatial[d] - 1));
    inside = d == 0 ? ok : (inside & ok);
  }
  Tensor linear;
  int64_t stride = 1;
  for (size_t d = taps.size(); d-- > 0;) {
    const Tensor at = where(inside, taps[d], 0.0).to(kInt64) * stride;
    linear = linear.defined() ? linear + at : at;
    stride *= spatial[d];
  }
  const Tensor index = linear.unsqueeze(1).expand({flat.size(0), flat.size(1), linear.size(1)});
  return {gather(flat, 2, index), inside.unsqueeze(1)};
}

// get_cubic_upsample_coefficients: the weights of the taps at -1, 0, 1, 2 for the fraction t.
std::vector<Tensor> grid_cubic_coefficients(const Tensor& t) {
  const Tensor rest = 1 - t;
  return {nn::detail::cubic_convolution2(t + 1), nn::detail::cubic_convolution1(t),
          nn::detail::cubic_convolution1(rest), nn::detail::cubic_convolution2(rest + 1)};
}

}  // namespace

Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners) {
  EMBER_CHECK_T(ValueError, size.size() == 4 || size.size() == 5,
                "[affine_grid_generator] size must be {N, C, H, W} or {N, C, D, H, W}, got ", size);
  const bool is_3d = size.size() == 5;
  const int64_t n = size[0];
  EMBER_CHECK_T(ValueError, theta.dim() == 3 && theta.size(0) == n,
                "[affine_grid_generator] theta must be [N, ", is_3d ? "3, 4" : "2, 3",
                "] with N = size[0] = ", n, ", got ", theta.sizes());
  const TensorOptions options = TensorOptions(theta.scalar_type()).device(theta.device());
  const int64_t depth = is_3d ? size[2] : 1, height = size[size.size() - 2],
                width = size[size.size() - 1];
  // The base grid [D, H, W, 3 or 4]: (x, y[, z], 1) of every output pixel.
  const std::vector<int64_t> shape{depth, height, width};
  std::vector<Tensor> columns{
      grid_linspace_from_neg_one(width, align_corners, options).view({1, 1, -1}).expand(shape),
      grid_linspace_from_neg_one(height, align_corners, options).view({1, -1, 1}).expand(shape)};
  if (is_3d) {
    columns.push_back(
        grid_linspace_from_neg_one(depth, align_corners, options).view({-1, 1, 1}).expand(shape));
  }
  columns.push_back(ones(shape, options));
  const int64_t cols = static_cast<int64_t>(columns.size());
  const Tensor base = stack(columns, -1).reshape({1, depth * height * width, cols});
  const Tensor grid = matmul(base.expand({n, depth * height * width, cols}), theta.transpose(1, 2));
  if (is_3d) return grid.view({n, depth, height, width, 3});
  return grid.view({n, height, width, 2});
}

Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  EMBER_CHECK_T(ValueError, interpolation_mode >= 0 && interpolation_mode <= 2,
                "[grid_sample] interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 "
                "(bicubic), got ",
                interpolation_mode);
  EMBER_CHECK_T(ValueError, padding_mode >= 0 && padding_mode <= 2,
                "[grid_sample] padding_mode must be 0 (zeros), 1 (border) or 2 (reflection), got ",
                padding_mode);
  EMBER_CHECK_T(ValueError, input.dim() == 4 || input.dim() == 5,
                "[grid_sample] expected a 4-D input [N, C, H, W] or a 5-D input [N, C, D, H, W], "
                "but got input with sizes ",
                input.sizes());
  EMBER_CHECK_T(ValueError, grid.dim() == input.dim(),
                "[grid_sample] expected grid and input to have same number of dimensions, but got "
                "input with sizes ",
                input.sizes(), " and grid with sizes ", grid.sizes(), "; a ", input.dim(),
                "-D input takes a grid [N, ", input.dim() == 4 ? "Ho, Wo, 2" : "Do, Ho, Wo, 3",
                "]");
  EMBER_CHECK_T(ValueError, input.device() == grid.device(),
                "[grid_sample] expected input and grid to be on same device, but input is on ",
                input.device(), " and grid is on ", grid.device());
  EMBER_CHECK_T(TypeError, input.is_floating_point(),
                "[grid_sample] expected a floating point input, but got ", input.scalar_type());
  EMBER_CHECK_T(TypeError, grid.scalar_type() == input.scalar_type(),
                "[grid_sample] expected input and grid to have the same dtype, but input is ",
                input.scalar_type(), " and grid is ", grid.scalar_type(),
                "; convert the grid with grid.to(input.scalar_type())");
  EMBER_CHECK_T(ValueError, input.size(0) == grid.size(0),
                "[grid_sample] expected grid and input to have same batch size, but got input "
                "with sizes ",
                input.sizes(), " and grid with sizes ", grid.sizes());
  // Pixel coordinates in half or bfloat16 would round (bfloat16 above 256): compute in float32,
  // as PyTorch's kernels do in their opmath type.
  if (input.scalar_type() == kFloat16 || input.scalar_type() == kBFloat16)
    return grid_sampler(input.to(kFloat32), grid.to(kFloat32), interpolation_mode, padding_mode,
                        align_corners)
        .to(input.scalar_type());
  const int64_t dims = input.dim() - 2;
  EMBER_CHECK_T(ValueError, grid.size(-1) == dims, "[grid_sample] expected grid to have size ",
                dims, " in last dimension, but got grid with sizes ", grid.sizes());
  for (int64_t d = 2; d < input.dim(); ++d) {
    EMBER_CHECK_T(ValueError, input.size(d) > 0,
                  "[grid_sample] expected input to have non-empty spatial dimensions, but input "
                  "has sizes ",
                  input.sizes(), " with dimension ", d, " being empty");
  }
  EMBER_CHECK_T(ValueError, interpolation_mode != 2 || dims == 2,
                "[grid_sample] bicubic interpolation only supports 4D input, got input with "
                "sizes ",
                input.sizes(), "; use bilinear or nearest for a volume");

  const int64_t n = input.size(0), channels = input.size(1);
  const std::vector<int64_t> spatial(input.sizes().begin() + 2, input.sizes().end());
  const std::vector<int64_t> out_spatial(grid.sizes().begin() + 1, grid.sizes().end() - 1);
  int64_t positions = 1, samples = 1;
  for (int64_t s : spatial) positions *= s;
  for (int64_t s : out_spatial) samples *= s;
  const Tensor flat = input.reshape({n, channels, positions});
  // The grid's coordinates, one [N, Q] tensor per spatial dim in the input's order (D, H, W):
  // grid[..., 0] is x, along the last dim.
  std::vector<Tensor> coords(static_cast<size_t>(dims));
  for (int64_t d = 0; d < dims; ++d) {
    coords[static_cast<size_t>(d)] = grid.select(-1, dims - 1 - d).reshape({n, samples});
  }

  Tensor out;
  auto accumulate = [&](const Tensor& term) { out = out.defined() ? out + term : term; };
  if (interpolation_mode == 2) {
    // Bicubic: 4 x 4 taps around floor(x, y), each padded on its own, weighted by the cubic
    // convolution coefficients of the fractions (the only path from the grid).
    const Tensor x = grid_unnormalize(coords[1], spatial[1], align_corners);
    const Tensor y = grid_unnormalize(coords[0], spatial[0], align_corners);
    const Tensor x0 = floor(x.detach()), y0 = floor(y.detach());
    const std::vector<Tensor> wx = grid_cubic_coefficients(x - x0);
    const std::vector<Tensor> wy = grid_cubic_coefficients(y - y0);
    auto tap = [&](const Tensor& base, int64_t offset, int64_t size) {
      return trunc(grid_pad_coordinates(base + static_cast<double>(offset), size, padding_mode,
                                        align_corners));
    };
    for (int64_t i = 0; i < 4; ++i) {
      const Tensor ty = tap(y0, i - 1, spatial[0]);
      Tensor row;
      for (int64_t j = 0; j < 4; ++j) {
        auto [values, inside] = grid_read_taps(flat, {ty, tap(x0, j - 1, spatial[1])}, spatial);
        const Tensor term = where(inside, values, 0.0) * wx[static_cast<size_t>(j)].unsqueeze(1);
        row = row.defined() ? row + term : term;
      }
      accumulate(row * wy[static_cast<size_t>(i)].unsqueeze(1));
    }
  } else {
    for (int64_t d = 0; d < dims; ++d) {
      auto& c = coords[static_cast<size_t>(d)];
      c = grid_pad_coordinates(grid_unnormalize(c, spatial[static_cast<size_t>(d)], align_corners),
                               spatial[static_cast<size_t>(d)], padding_mode, align_corners);
    }
    if (interpolation_mode == 1) {
      // Nearest: the tap at round-half-to-even of the position (nearbyint), 0 outside. The
      // weight is 1 but keeps the grid in the graph with round's zero gradient, so that the
      // grid's gradient is zeros, as PyTorch's (its taps are finite, so 1 exactly).
      std::vector<Tensor> taps;
      Tensor weight = ones({}, flat.options());
      for (const Tensor& c : coords) {
        const Tensor rounded = round(c);
        taps.push_back(rounded.detach());
        weight = weight + (rounded - taps.back());
      }
      auto [values, inside] = grid_read_taps(flat, taps, spatial);
      accumulate(where(inside, values * weight.unsqueeze(1), 0.0));
    } else {
      // Bilinear: the 2^dims corners around floor(position), x varying fastest, each weighted by
      // the product (x first) of its distances to the opposite corner; corners outside add 0.
      std::vector<Tensor> low(coords.size());
      for (size_t d = 0; d < coords.size(); ++d) low[d] = floor(coords[d].detach());
      for (int64_t corner = 0; corner < (int64_t{1} << dims); ++corner) {
        std::vector<Tensor> taps(coords.size());
        Tensor weight;
        for (int64_t d = dims - 1; d >= 0; --d) {
          const auto k = static_cast<size_t>(d);
          const bool high = ((corner >> (dims - 1 - d)) & 1) != 0;
          taps[k] = high ? low[k] + 1 : low[k];
          const Tensor w = high ? coords[k] - low[k] : (low[k] + 1) - coords[k];
          weight = weight.defined() ? weight * w : w;
        }
        auto [values, inside] = grid_read_taps(flat, taps, spatial);
        accumulate(where(inside, values * weight.unsqueeze(1), 0.0));
      }
    }
  }
  std::vector<int64_t> out_shape{n, channels};
  out_shape.insert(out_shape.end(), out_spatial.begin(), out_spatial.end());
  return out.view(out_shape);
}

namespace nn::functional {

Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners) {
  EMBER_CHECK_T(TypeError, theta.is_floating_point(),
                "[affine_grid] Expected theta to have floating point type, but got ",
                theta.scalar_type());
  if (size.size() == 4) {
    EMBER_CHECK_T(ValueError, theta.dim() == 3 && theta.size(-2) == 2 && theta.size(-1) == 3,
                  "[affine_grid] Expected a batch of 2D affine matrices of shape Nx2x3 for size ",
                  size, ". Got ", theta.sizes(), ".");
  } else if (size.size() == 5) {
    EMBER_CHECK_T(ValueError, theta.dim() == 3 && theta.size(-2) == 3 && theta.size(-1) == 4,
                  "[affine_grid] Expected a batch of 3D affine matrices of shape Nx3x4 for size ",
                  size, ". Got ", theta.sizes(), ".");
  } else {
    EMBER_CHECK_T(ValueError, false,
                  "[affine_grid] affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                  "transforms, respectively. Got size ",
                  size);
  }
  EMBER_CHECK_T(ValueError, *std::min_element(size.begin(), size.end()) > 0,
                "[affine_grid] Expected non-zero, positive output size. Got ", size);
  EMBER_CHECK_T(ValueError, theta.size(0) == size[0], "[affine_grid] Expected theta's batch size ",
                theta.size(0), " to equal size[0] = ", size[0], ". Got theta ", theta.sizes(),
                " and size ", size, ".");
  return affine_grid_generator(theta, size, align_corners);
}

Tensor grid_sample(const Tensor& input, const Tensor& grid, const GridSampleFuncOptions& options) {
  const int64_t mode = static_cast<int64_t>(options.mode().index());
  const int64_t padding_mode = static_cast<int64_t>(options.padding_mode().index());
  std::optional<bool> align_corners = options.align_corners();
  if (!align_corners.has_value()) {
    warn(Warning(UserWarning(), {"grid_sample", __FILE__, __LINE__},
                 "Default grid_sample and affine_grid behavior has changed to "
                 "align_corners=False since 1.3.0. Please specify align_corners=True if the old "
                 "behavior is desired. See the documentation of grid_sample for details.",
                 false));
    align_corners = false;
  }
  return grid_sampler(input, grid, mode, padding_mode, *align_corners);
}

}  // namespace nn::functional
}  // namespace ember
