// The pooling layers, as LibTorch's torch/nn/modules/pooling.h: AvgPool, MaxPool,
// AdaptiveAvgPool, AdaptiveMaxPool and MaxUnpool in 1d/2d/3d, LPPool1d/2d, over the ops of
// pool_ops.h and nn/functional/pooling.h. Each checks its options in reset() and prints as
// LibTorch's: torch::nn::AvgPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/nn/module.h"
#include "ember/nn/options/pooling.h"

namespace ember::nn {

// The shared part of AvgPool1d/2d/3d (Derived is the layer, for cloning).
template <size_t D, class Derived>
class EMBER_API AvgPoolImpl : public Cloneable<Derived> {
 public:
  explicit AvgPoolImpl(ExpandingArray<D> kernel_size)
      : AvgPoolImpl(AvgPoolOptions<D>(kernel_size)) {}
  explicit AvgPoolImpl(const AvgPoolOptions<D>& options);
  void reset() override;  // checks the window
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  AvgPoolOptions<D> options;
};

class EMBER_API AvgPool1dImpl : public AvgPoolImpl<1, AvgPool1dImpl> {
 public:
  using AvgPoolImpl<1, AvgPool1dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
EMBER_MODULE(AvgPool1d);

class EMBER_API AvgPool2dImpl : public AvgPoolImpl<2, AvgPool2dImpl> {
 public:
  using AvgPoolImpl<2, AvgPool2dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
EMBER_MODULE(AvgPool2d);

class EMBER_API AvgPool3dImpl : public AvgPoolImpl<3, AvgPool3dImpl> {
 public:
  using AvgPoolImpl<3, AvgPool3dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
EMBER_MODULE(AvgPool3d);

// The shared part of MaxPool1d/2d/3d.
template <size_t D, class Derived>
class EMBER_API MaxPoolImpl : public Cloneable<Derived> {
 public:
  explicit MaxPoolImpl(ExpandingArray<D> kernel_size)
      : MaxPoolImpl(MaxPoolOptions<D>(kernel_size)) {}
  explicit MaxPoolImpl(const MaxPoolOptions<D>& options);
  void reset() override;  // checks the window
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  MaxPoolOptions<D> options;
};

class EMBER_API MaxPool1dImpl : public MaxPoolImpl<1, MaxPool1dImpl> {
 public:
  using MaxPoolImpl<1, MaxPool1dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  // The output and the flat position of each window's maximum.
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
EMBER_MODULE(MaxPool1d);

class EMBER_API MaxPool2dImpl : public MaxPoolImpl<2, MaxPool2dImpl> {
 public:
  using MaxPoolImpl<2, MaxPool2dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
EMBER_MODULE(MaxPool2d);

class EMBER_API MaxPool3dImpl : public MaxPoolImpl<3, MaxPool3dImpl> {
 public:
  using MaxPoolImpl<3, MaxPool3dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
EMBER_MODULE(MaxPool3d);

// The shared part of AdaptiveAvgPool1d/2d/3d; output_size_t as AdaptiveAvgPoolOptions'.
template <size_t D, class output_size_t, class Derived>
class EMBER_API AdaptiveAvgPoolImpl : public Cloneable<Derived> {
 public:
  explicit AdaptiveAvgPoolImpl(output_size_t output_size)
      : AdaptiveAvgPoolImpl(AdaptiveAvgPoolOptions<output_size_t>(output_size)) {}
  explicit AdaptiveAvgPoolImpl(const AdaptiveAvgPoolOptions<output_size_t>& options);
  void reset() override {}  // nothing to check or register
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  AdaptiveAvgPoolOptions<output_size_t> options;
};

class EMBER_API AdaptiveAvgPool1dImpl
    : public AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl> {
 public:
  using AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
EMBER_MODULE(AdaptiveAvgPool1d);

class EMBER_API AdaptiveAvgPool2dImpl
    : public AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveAvgPool2dImpl> {
 public:
  using AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>,
                            AdaptiveAvgPool2dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
EMBER_MODULE(AdaptiveAvgPool2d);

class EMBER_API AdaptiveAvgPool3dImpl
    : public AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveAvgPool3dImpl> {
 public:
  using AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>,
                            AdaptiveAvgPool3dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
EMBER_MODULE(AdaptiveAvgPool3d);

// The shared part of AdaptiveMaxPool1d/2d/3d.
template <size_t D, class output_size_t, class Derived>
class EMBER_API AdaptiveMaxPoolImpl : public Cloneable<Derived> {
 public:
  explicit AdaptiveMaxPoolImpl(output_size_t output_size)
      : AdaptiveMaxPoolImpl(AdaptiveMaxPoolOptions<output_size_t>(output_size)) {}
  explicit AdaptiveMaxPoolImpl(const AdaptiveMaxPoolOptions<output_size_t>& options);
  void reset() override {}  // nothing to check or register
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  AdaptiveMaxPoolOptions<output_size_t> options;
};

class EMBER_API AdaptiveMaxPool1dImpl
    : public AdaptiveMaxPoolImpl<1, ExpandingArray<1>, AdaptiveMaxPool1dImpl> {
 public:
  using AdaptiveMaxPoolImpl<1, ExpandingArray<1>, AdaptiveMaxPool1dImpl>::AdaptiveMaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
EMBER_MODULE(AdaptiveMaxPool1d);

class EMBER_API AdaptiveMaxPool2dImpl
    : public AdaptiveMaxPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveMaxPool2dImpl> {
 public:
  using AdaptiveMaxPoolImpl<2, ExpandingArrayWithOptionalElem<2>,
                            AdaptiveMaxPool2dImpl>::AdaptiveMaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
EMBER_MODULE(AdaptiveMaxPool2d);

class EMBER_API AdaptiveMaxPool3dImpl
    : public AdaptiveMaxPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveMaxPool3dImpl> {
 public:
  using AdaptiveMaxPoolImpl<3, ExpandingArrayWithOptionalElem<3>,
                            AdaptiveMaxPool3dImpl>::AdaptiveMaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
EMBER_MODULE(AdaptiveMaxPool3d);

// The shared part of MaxUnpool1d/2d/3d.
template <size_t D, class Derived>
class EMBER_API MaxUnpoolImpl : public Cloneable<Derived> {
 public:
  explicit MaxUnpoolImpl(ExpandingArray<D> kernel_size)
      : MaxUnpoolImpl(MaxUnpoolOptions<D>(kernel_size)) {}
  explicit MaxUnpoolImpl(const MaxUnpoolOptions<D>& options);
  void reset() override;  // checks the window
  // output_size: as F::MaxUnpoolFuncOptions' (unset, the size the pool came from without
  // ceil_mode).
  Tensor forward(const Tensor& input, const Tensor& indices,
                 const std::optional<std::vector<int64_t>>& output_size = std::nullopt);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  MaxUnpoolOptions<D> options;
};

class EMBER_API MaxUnpool1dImpl : public MaxUnpoolImpl<1, MaxUnpool1dImpl> {
 public:
  using MaxUnpoolImpl<1, MaxUnpool1dImpl>::MaxUnpoolImpl;
};
EMBER_MODULE(MaxUnpool1d);

class EMBER_API MaxUnpool2dImpl : public MaxUnpoolImpl<2, MaxUnpool2dImpl> {
 public:
  using MaxUnpoolImpl<2, MaxUnpool2dImpl>::MaxUnpoolImpl;
};
EMBER_MODULE(MaxUnpool2d);

class EMBER_API MaxUnpool3dImpl : public MaxUnpoolImpl<3, MaxUnpool3dImpl> {
 public:
  using MaxUnpoolImpl<3, MaxUnpool3dImpl>::MaxUnpoolImpl;
};
EMBER_MODULE(MaxUnpool3d);

// The shared part of LPPool1d/2d.
template <size_t D, class Derived>
class EMBER_API LPPoolImpl : public Cloneable<Derived> {
 public:
  LPPoolImpl(double norm_type, ExpandingArray<D> kernel_size)
      : LPPoolImpl(LPPoolOptions<D>(norm_type, kernel_size)) {}
  explicit LPPoolImpl(const LPPoolOptions<D>& options);
  void reset() override;  // checks the window
  Tensor forward(const Tensor& input);
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;
  LPPoolOptions<D> options;
};

class EMBER_API LPPool1dImpl : public LPPoolImpl<1, LPPool1dImpl> {
 public:
  using LPPoolImpl<1, LPPool1dImpl>::LPPoolImpl;
};
EMBER_MODULE(LPPool1d);

class EMBER_API LPPool2dImpl : public LPPoolImpl<2, LPPool2dImpl> {
 public:
  using LPPoolImpl<2, LPPool2dImpl>::LPPoolImpl;
};
EMBER_MODULE(LPPool2d);

}  // namespace ember::nn
