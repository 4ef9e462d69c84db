// The padding modules of LibTorch 1.13's torch/nn/modules/padding.h: ReflectionPad{1,2,3}d,
// ReplicationPad{1,2,3}d, ZeroPad2d and ConstantPad{1,2,3}d, each a call of F::pad.
#pragma once

#include <cstddef>
#include <ostream>
#include <vector>

#include "ember/nn/functional/padding.h"
#include "ember/nn/module.h"
#include "ember/nn/options/padding.h"

namespace ember::nn {

namespace detail {
template <size_t N>
std::vector<int64_t> pad_list_of(const ExpandingArray<N>& padding) {
  return std::vector<int64_t>(padding->begin(), padding->end());
}
}  // namespace detail

template <size_t D, typename Derived>
class ReflectionPadImpl : public Cloneable<Derived> {
 public:
  explicit ReflectionPadImpl(ExpandingArray<D * 2> padding)
      : ReflectionPadImpl(ReflectionPadOptions<D>(padding)) {}
  explicit ReflectionPadImpl(const ReflectionPadOptions<D>& options_)
      : Cloneable<Derived>(D == 1   ? "ReflectionPad1d"
                           : D == 2 ? "ReflectionPad2d"
                                    : "ReflectionPad3d"),
        options(options_) {}
  void reset() override {}
  Tensor forward(const Tensor& input) {
    return functional::pad(
        input, functional::PadFuncOptions(detail::pad_list_of(options.padding())).mode(kReflect));
  }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ReflectionPad" << D << "d(padding=" << options.padding() << ")";
  }
  ReflectionPadOptions<D> options;
};

template <size_t D, typename Derived>
class ReplicationPadImpl : public Cloneable<Derived> {
 public:
  explicit ReplicationPadImpl(ExpandingArray<D * 2> padding)
      : ReplicationPadImpl(ReplicationPadOptions<D>(padding)) {}
  explicit ReplicationPadImpl(const ReplicationPadOptions<D>& options_)
      : Cloneable<Derived>(D == 1   ? "ReplicationPad1d"
                           : D == 2 ? "ReplicationPad2d"
                                    : "ReplicationPad3d"),
        options(options_) {}
  void reset() override {}
  Tensor forward(const Tensor& input) {
    return functional::pad(
        input, functional::PadFuncOptions(detail::pad_list_of(options.padding())).mode(kReplicate));
  }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ReplicationPad" << D << "d(padding=" << options.padding() << ")";
  }
  ReplicationPadOptions<D> options;
};

template <size_t D, typename Derived>
class ConstantPadImpl : public Cloneable<Derived> {
 public:
  ConstantPadImpl(ExpandingArray<D * 2> padding, double value)
      : ConstantPadImpl(ConstantPadOptions<D>(padding, value)) {}
  explicit ConstantPadImpl(const ConstantPadOptions<D>& options_)
      : Cloneable<Derived>(D == 1   ? "ConstantPad1d"
                           : D == 2 ? "ConstantPad2d"
                                    : "ConstantPad3d"),
        options(options_) {}
  void reset() override {}
  Tensor forward(const Tensor& input) {
    return functional::pad(input, functional::PadFuncOptions(detail::pad_list_of(options.padding()))
                                      .mode(kConstant)
                                      .value(options.value()));
  }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ConstantPad" << D << "d(padding=" << options.padding()
           << ", value=" << options.value() << ")";
  }
  ConstantPadOptions<D> options;
};

#define EMBER_PAD_MODULE(Kind, D)                                                      \
  class EMBER_API Kind##Pad##D##dImpl : public Kind##PadImpl<D, Kind##Pad##D##dImpl> { \
   public:                                                                             \
    using Kind##PadImpl<D, Kind##Pad##D##dImpl>::Kind##PadImpl;                        \
  };                                                                                   \
  EMBER_MODULE(Kind##Pad##D##d)

EMBER_PAD_MODULE(Reflection, 1);
EMBER_PAD_MODULE(Reflection, 2);
EMBER_PAD_MODULE(Reflection, 3);
EMBER_PAD_MODULE(Replication, 1);
EMBER_PAD_MODULE(Replication, 2);
EMBER_PAD_MODULE(Replication, 3);
EMBER_PAD_MODULE(Constant, 1);
EMBER_PAD_MODULE(Constant, 2);
EMBER_PAD_MODULE(Constant, 3);
#undef EMBER_PAD_MODULE

class EMBER_API ZeroPad2dImpl : public Cloneable<ZeroPad2dImpl> {
 public:
  explicit ZeroPad2dImpl(ExpandingArray<4> padding) : ZeroPad2dImpl(ZeroPad2dOptions(padding)) {}
  explicit ZeroPad2dImpl(const ZeroPad2dOptions& options_)
      : Cloneable("ZeroPad2d"), options(options_) {}
  void reset() override {}
  Tensor forward(const Tensor& input) {
    return functional::pad(input,
                           functional::PadFuncOptions(detail::pad_list_of(options.padding())));
  }
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ZeroPad2d(padding=" << options.padding() << ")";
  }
  ZeroPad2dOptions options;
};
EMBER_MODULE(ZeroPad2d);

}  // namespace ember::nn
