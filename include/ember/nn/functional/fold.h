// F::fold (col2im: sums sliding blocks into an image) and F::unfold (im2col: extracts them), as
// LibTorch's torch/nn/functional/fold.h. Both are differentiable (each is the other's gradient).
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/fold.h"
#include "ember/tensor.h"

namespace ember::nn::functional {

// input [N, C * kh * kw, L] or unbatched [C * kh * kw, L] -> [N, C, H, W] or [C, H, W]
// (H, W = output_size), L being the number of blocks that fit into output_size.
EMBER_API Tensor fold(const Tensor& input, const FoldFuncOptions& options);
// input [N, C, H, W] -> [N, C * kh * kw, L], one column per block.
EMBER_API Tensor unfold(const Tensor& input, const UnfoldFuncOptions& options);

}  // namespace ember::nn::functional
