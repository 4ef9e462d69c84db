// Dropout2d, Dropout3d, AlphaDropout and FeatureAlphaDropout, as LibTorch's
// torch/nn/modules/dropout.h (Dropout itself is in layers.h). Each takes DropoutOptions (or p),
// is the identity in eval() and writes into its input with inplace(true).
#pragma once

#include <ostream>

#include "ember/nn/functional/dropout.h"
#include "ember/nn/module.h"
#include "ember/nn/options/dropout.h"

namespace ember::nn {
namespace detail {

// LibTorch's _DropoutNd: the options, their check (reset) and the printing the layers share.
template <class Derived>
class EMBER_API DropoutNdImpl : public Cloneable<Derived> {
 public:
  void reset() override;  // checks p
  // LibTorch's printing, e.g. torch::nn::Dropout2d(p=0.5, inplace=false)
  void pretty_print(std::ostream& stream) const override;
  DropoutOptions options;

 protected:
  DropoutNdImpl(const char* type_name, const DropoutOptions& options_)
      : Cloneable<Derived>(type_name), options(options_) {
    reset();
  }
};

}  // namespace detail

// One row per layer: X(Module, F:: function, its options, the type forward takes).
// clang-format off
#define EMBER_DROPOUT_LAYERS(X)                                                     \
  X(Dropout2d,           dropout2d,             Dropout2dFuncOptions,           Tensor)        \
  X(Dropout3d,           dropout3d,             Dropout3dFuncOptions,           Tensor)        \
  X(AlphaDropout,        alpha_dropout,         AlphaDropoutFuncOptions,        const Tensor&) \
  X(FeatureAlphaDropout, feature_alpha_dropout, FeatureAlphaDropoutFuncOptions, const Tensor&)
// clang-format on

#define EMBER_DECLARE_DROPOUT_LAYER(Name, function, FuncOptions, Input)                          \
  class EMBER_API Name##Impl : public detail::DropoutNdImpl<Name##Impl> {                        \
   public:                                                                                       \
    explicit Name##Impl(const DropoutOptions& options_ = {}) : DropoutNdImpl(#Name, options_) {} \
    /* implicit */ Name##Impl(double p) : Name##Impl(DropoutOptions(p)) {} /* NOLINT */          \
    Tensor forward(Input input) {                                                                \
      return functional::function(input, functional::FuncOptions()                               \
                                             .p(options.p())                                     \
                                             .training(is_training())                            \
                                             .inplace(options.inplace()));                       \
    }                                                                                            \
  };                                                                                             \
  EMBER_MODULE(Name);
EMBER_DROPOUT_LAYERS(EMBER_DECLARE_DROPOUT_LAYER)
#undef EMBER_DECLARE_DROPOUT_LAYER

}  // namespace ember::nn
