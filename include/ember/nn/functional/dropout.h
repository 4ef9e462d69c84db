// F::dropout with LibTorch's options: F::dropout(x, F::DropoutFuncOptions().p(0.2).training(t)).
#pragma once

#include "ember/macros.h"
#include "ember/nn/options/dropout.h"
#include "ember/tensor.h"

namespace ember::nn::functional {

EMBER_API Tensor dropout(Tensor input, const DropoutFuncOptions& options = {});

}  // namespace ember::nn::functional
