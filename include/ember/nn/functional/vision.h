// F::affine_grid and F::grid_sample, as LibTorch 1.13's torch/nn/functional/vision.h: the
// sampling grid of a batch of affine transforms, and the sampling of an image at a grid's points
// (spatial transformer networks). Both are differentiable: grid_sample in its input and, for
// bilinear and bicubic, in the grid.
#pragma once

#include "ember/array_ref.h"
#include "ember/macros.h"
#include "ember/nn/options/vision.h"
#include "ember/tensor.h"

namespace ember {

// LibTorch's ATen ops behind the two functionals (torch::affine_grid_generator and
// torch::grid_sampler), with PyTorch's numbering: interpolation_mode 0 bilinear, 1 nearest,
// 2 bicubic; padding_mode 0 zeros, 1 border, 2 reflection.
EMBER_API Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners);
EMBER_API Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                              int64_t padding_mode, bool align_corners);

namespace nn::functional {

// theta [N, 2, 3] and size {N, C, H, W} -> grid [N, H, W, 2]; theta [N, 3, 4] and size
// {N, C, D, H, W} -> grid [N, D, H, W, 3]: the normalized (x, y[, z]) in [-1, 1] at which each
// output pixel samples, theta applied to the output pixels' own normalized coordinates.
EMBER_API Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners = false);

// input [N, C, H, W] and grid [N, Ho, Wo, 2] -> [N, C, Ho, Wo]; input [N, C, D, H, W] and grid
// [N, Do, Ho, Wo, 3] -> [N, C, Do, Ho, Wo]. grid[..., 0] is x (along W), grid[..., 1] y (along
// H), grid[..., 2] z (along D), -1 and 1 the input's edges (see align_corners).
EMBER_API Tensor grid_sample(const Tensor& input, const Tensor& grid,
                             const GridSampleFuncOptions& options = {});

}  // namespace nn::functional
}  // namespace ember
