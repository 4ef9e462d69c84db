// Options of CosineSimilarity and PairwiseDistance and their F:: forms, as LibTorch's
// torch/nn/options/distance.h.
#pragma once

#include <cstdint>

#include "ember/arg.h"

namespace ember::nn {

struct CosineSimilarityOptions {
  EMBER_ARG(int64_t, dim) = 1;
  EMBER_ARG(double, eps) = 1e-8;  // the least norm each input counts with
};

struct PairwiseDistanceOptions {
  EMBER_ARG(double, p) = 2.0;
  EMBER_ARG(double, eps) = 1e-6;  // added to the difference
  EMBER_ARG(bool, keepdim) = false;
};

namespace functional {
using CosineSimilarityFuncOptions = CosineSimilarityOptions;
using PairwiseDistanceFuncOptions = PairwiseDistanceOptions;
}  // namespace functional

}  // namespace ember::nn
