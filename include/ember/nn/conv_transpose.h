// ConvTranspose1d/2d/3d, as LibTorch's torch/nn/modules/conv.h: a [in, out / groups, k...]
// weight and an optional [out] bias, initialised as PyTorch's, over conv_transpose1d/2d/3d
// (conv_transpose_ops.h). forward takes an optional output_size, from which it picks the
// output_padding (LibTorch's _output_padding), to undo a strided convolution's rounding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/array_ref.h"
#include "ember/nn/any_module.h"
#include "ember/nn/module.h"
#include "ember/nn/options/conv_transpose.h"

namespace ember::nn {

// The shared part of ConvTranspose1d/2d/3d.
template <size_t D, class Derived>
class EMBER_API ConvTransposeNdImpl : public Cloneable<Derived> {
 public:
  explicit ConvTransposeNdImpl(ConvTransposeOptions<D> options);
  void reset() override;
  void reset_parameters();  // kaiming_uniform(a = sqrt 5); bias U(+-1/sqrt(fan_in))
  std::string extra_repr() const override;
  void pretty_print(std::ostream& stream) const override;

  ConvTransposeOptions<D> options;
  Tensor weight;  // [in, out / groups, k...]
  Tensor bias;    // [out]

 protected:
  // The output_padding that makes the output output_size (D sizes, or D + 2 with the batch and
  // channel dims; D + 1 for an unbatched input), or options' output_padding without one.
  std::vector<int64_t> _output_padding(const Tensor& input,
                                       const std::optional<IntArrayRef>& output_size) const;
  // conv_transpose1d/2d/3d of input with this layer's weight, bias and options.
  Tensor forward_impl(const Tensor& input, const std::optional<IntArrayRef>& output_size);
};

class EMBER_API ConvTranspose1dImpl : public ConvTransposeNdImpl<1, ConvTranspose1dImpl> {
 public:
  ConvTranspose1dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<1> kernel_size)
      : ConvTranspose1dImpl(ConvTranspose1dOptions(in_channels, out_channels, kernel_size)) {}
  explicit ConvTranspose1dImpl(ConvTranspose1dOptions options_)
      : ConvTransposeNdImpl(std::move(options_)) {}
  Tensor forward(const Tensor& input, const std::optional<IntArrayRef>& output_size = std::nullopt);

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<IntArrayRef>())})
};
EMBER_MODULE(ConvTranspose1d);

class EMBER_API ConvTranspose2dImpl : public ConvTransposeNdImpl<2, ConvTranspose2dImpl> {
 public:
  ConvTranspose2dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<2> kernel_size)
      : ConvTranspose2dImpl(ConvTranspose2dOptions(in_channels, out_channels, kernel_size)) {}
  explicit ConvTranspose2dImpl(ConvTranspose2dOptions options_)
      : ConvTransposeNdImpl(std::move(options_)) {}
  Tensor forward(const Tensor& input, const std::optional<IntArrayRef>& output_size = std::nullopt);

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<IntArrayRef>())})
};
EMBER_MODULE(ConvTranspose2d);

class EMBER_API ConvTranspose3dImpl : public ConvTransposeNdImpl<3, ConvTranspose3dImpl> {
 public:
  ConvTranspose3dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<3> kernel_size)
      : ConvTranspose3dImpl(ConvTranspose3dOptions(in_channels, out_channels, kernel_size)) {}
  explicit ConvTranspose3dImpl(ConvTranspose3dOptions options_)
      : ConvTransposeNdImpl(std::move(options_)) {}
  Tensor forward(const Tensor& input, const std::optional<IntArrayRef>& output_size = std::nullopt);

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<IntArrayRef>())})
};
EMBER_MODULE(ConvTranspose3d);

}  // namespace ember::nn
