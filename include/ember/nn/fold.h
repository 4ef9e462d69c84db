// Fold and Unfold, as LibTorch's torch/nn/modules/fold.h.
#pragma once

#include <ostream>

#include "ember/nn/functional/fold.h"
#include "ember/nn/module.h"
#include "ember/nn/options/fold.h"

namespace ember::nn {

// [N, C * kh * kw, L] -> [N, C, output_size] (overlapping blocks are summed).
class EMBER_API FoldImpl : public Cloneable<FoldImpl> {
 public:
  FoldImpl(ExpandingArray<2> output_size, ExpandingArray<2> kernel_size)
      : FoldImpl(FoldOptions(output_size, kernel_size)) {}
  explicit FoldImpl(const FoldOptions& options_) : Cloneable("Fold"), options(options_) { reset(); }
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input) { return functional::fold(input, options); }
  FoldOptions options;
};
EMBER_MODULE(Fold);

// [N, C, H, W] -> [N, C * kh * kw, L].
class EMBER_API UnfoldImpl : public Cloneable<UnfoldImpl> {
 public:
  UnfoldImpl(ExpandingArray<2> kernel_size)  // NOLINT (implicit, as LibTorch's)
      : UnfoldImpl(UnfoldOptions(kernel_size)) {}
  explicit UnfoldImpl(const UnfoldOptions& options_) : Cloneable("Unfold"), options(options_) {
    reset();
  }
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input) { return functional::unfold(input, options); }
  UnfoldOptions options;
};
EMBER_MODULE(Unfold);

}  // namespace ember::nn
