// The dropouts with LibTorch's options: F::dropout(x, F::DropoutFuncOptions().p(0.2).training(t)),
// F::dropout2d / F::dropout3d (whole channels of [N, C, H, W] / [N, C, D, H, W], or unbatched),
// F::alpha_dropout and F::feature_alpha_dropout (off unless training(true), as LibTorch).
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/dropout.h"
#include "ember/tensor.h"

namespace ember::nn::functional {

EMBER_API Tensor dropout(Tensor input, const DropoutFuncOptions& options = {});
EMBER_API Tensor dropout2d(Tensor input, const Dropout2dFuncOptions& options = {});
EMBER_API Tensor dropout3d(Tensor input, const Dropout3dFuncOptions& options = {});
EMBER_API Tensor alpha_dropout(Tensor input, const AlphaDropoutFuncOptions& options = {});
EMBER_API Tensor feature_alpha_dropout(Tensor input,
                                       const FeatureAlphaDropoutFuncOptions& options = {});

}  // namespace ember::nn::functional
