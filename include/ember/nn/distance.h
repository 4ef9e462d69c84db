// CosineSimilarity and PairwiseDistance, as LibTorch's torch/nn/modules/distance.h: forward
// takes the two inputs.
#pragma once

#include <ostream>

#include "ember/nn/functional/distance.h"
#include "ember/nn/module.h"
#include "ember/nn/options/distance.h"

namespace ember::nn {

class EMBER_API CosineSimilarityImpl : public Cloneable<CosineSimilarityImpl> {
 public:
  explicit CosineSimilarityImpl(const CosineSimilarityOptions& options_ = {})
      : Cloneable("CosineSimilarity"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(const Tensor& input1, const Tensor& input2) {
    return functional::cosine_similarity(input1, input2, options);
  }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::CosineSimilarity(dim=" << options.dim() << ", eps=" << options.eps()
           << ")";
  }
  CosineSimilarityOptions options;
};
EMBER_MODULE(CosineSimilarity);

class EMBER_API PairwiseDistanceImpl : public Cloneable<PairwiseDistanceImpl> {
 public:
  explicit PairwiseDistanceImpl(const PairwiseDistanceOptions& options_ = {})
      : Cloneable("PairwiseDistance"), options(options_) {
    reset();
  }
  void reset() override {}
  Tensor forward(const Tensor& input1, const Tensor& input2) {
    return functional::pairwise_distance(input1, input2, options);
  }
  void pretty_print(std::ostream& stream) const override {
    stream << std::boolalpha << "torch::nn::PairwiseDistance(p=" << options.p()
           << ", eps=" << options.eps() << ", keepdim=" << options.keepdim() << ")";
  }
  PairwiseDistanceOptions options;
};
EMBER_MODULE(PairwiseDistance);

}  // namespace ember::nn
