// Options of Linear, Flatten, Unflatten and Bilinear, as LibTorch's torch/nn/options/linear.h.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ember/arg.h"

namespace ember::nn {

struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}
  EMBER_ARG(int64_t, in_features);
  EMBER_ARG(int64_t, out_features);
  EMBER_ARG(bool, bias) = true;
};

struct FlattenOptions {
  EMBER_ARG(int64_t, start_dim) = 1;
  EMBER_ARG(int64_t, end_dim) = -1;
};

// Splits dim into sizes (one of them may be -1, inferred). LibTorch's named-tensor form
// (dimname, namedshape) is not offered: ember has no named tensors.
struct UnflattenOptions {
  UnflattenOptions(int64_t dim, std::vector<int64_t> sizes) : dim_(dim), sizes_(std::move(sizes)) {}
  EMBER_ARG(int64_t, dim);
  EMBER_ARG(std::vector<int64_t>, sizes);
};

// y = x1^T W x2 + b over in1_features x in2_features -> out_features.
struct BilinearOptions {
  BilinearOptions(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : in1_features_(in1_features), in2_features_(in2_features), out_features_(out_features) {}
  EMBER_ARG(int64_t, in1_features);
  EMBER_ARG(int64_t, in2_features);
  EMBER_ARG(int64_t, out_features);
  EMBER_ARG(bool, bias) = true;
};

}  // namespace ember::nn
