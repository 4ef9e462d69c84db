// The most dims a tensor has: a header of its own so that the host/device geometry of
// src/kernels/ (compiled by nvcc as well) sizes its arrays without the tensor types.
#pragma once

namespace ember::detail {

// Note [Fixed dimension capacity]
// Sizes and strides live inline (no heap allocation per tensor), which keeps a small op at a few
// hundred instructions. PyTorch's CUDA kernels have the same kind of limit (25 dims).
inline constexpr int kMaxDims = 16;

}  // namespace ember::detail
