// Helpers shared by the shape-op front halves (index.cpp, sort.cpp).
#pragma once

#include "ember/tensor.h"

namespace ember::ops {

// PyTorch's gather, scatter, sort and topk treat a 0-dim tensor as one of shape [1]: a view.
inline Tensor at_least_1d(const Tensor& t) { return t.dim() == 0 ? t.view({1}) : t; }

}  // namespace ember::ops
