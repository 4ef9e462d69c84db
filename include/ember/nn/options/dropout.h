// Options of Dropout and F::dropout, as LibTorch's torch/nn/options/dropout.h.
#pragma once

#include "ember/arg.h"

namespace ember::nn {

struct DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5) : p_(p) {}  // NOLINT
  EMBER_ARG(double, p);
  EMBER_ARG(bool, inplace) = false;
};

namespace functional {
struct DropoutFuncOptions {
  EMBER_ARG(double, p) = 0.5;
  EMBER_ARG(bool, training) = true;
  EMBER_ARG(bool, inplace) = false;
};
}  // namespace functional

}  // namespace ember::nn
