// Backward formula of dropout (ops/dropout.cpp).
#pragma once

#include "autograd/record.h"

namespace ember::autograd::functions {

// NativeDropoutBackward0: the gradient times the scaled keep mask. Saves the mask.
struct NativeDropoutBackward0 {
  static constexpr const char* kName = "NativeDropoutBackward0";
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
