// Options of the padding modules (ReflectionPad, ReplicationPad, ZeroPad2d, ConstantPad) and of
// F::pad, as LibTorch 1.13's torch/nn/options/padding.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "ember/arg.h"
#include "ember/enum.h"
#include "ember/nn/expanding_array.h"

namespace ember::nn {

template <size_t D>
struct ReflectionPadOptions {
  /* implicit */ ReflectionPadOptions(ExpandingArray<D * 2> padding)  // NOLINT
      : padding_(padding) {}
  EMBER_ARG(ExpandingArray<D * 2>, padding);
};
using ReflectionPad1dOptions = ReflectionPadOptions<1>;
using ReflectionPad2dOptions = ReflectionPadOptions<2>;
using ReflectionPad3dOptions = ReflectionPadOptions<3>;

template <size_t D>
struct ReplicationPadOptions {
  /* implicit */ ReplicationPadOptions(ExpandingArray<D * 2> padding)  // NOLINT
      : padding_(padding) {}
  EMBER_ARG(ExpandingArray<D * 2>, padding);
};
using ReplicationPad1dOptions = ReplicationPadOptions<1>;
using ReplicationPad2dOptions = ReplicationPadOptions<2>;
using ReplicationPad3dOptions = ReplicationPadOptions<3>;

struct ZeroPad2dOptions {
  /* implicit */ ZeroPad2dOptions(ExpandingArray<4> padding)  // NOLINT
      : padding_(padding) {}
  EMBER_ARG(ExpandingArray<4>, padding);
};

template <size_t D>
struct ConstantPadOptions {
  ConstantPadOptions(ExpandingArray<D * 2> padding, double value)
      : padding_(padding), value_(value) {}
  EMBER_ARG(ExpandingArray<D * 2>, padding);
  EMBER_ARG(double, value);
};
using ConstantPad1dOptions = ConstantPadOptions<1>;
using ConstantPad2dOptions = ConstantPadOptions<2>;
using ConstantPad3dOptions = ConstantPadOptions<3>;

namespace functional {

struct PadFuncOptions {
  using mode_t = std::variant<enumtype::kConstant, enumtype::kReflect, enumtype::kReplicate,
                              enumtype::kCircular>;
  /* implicit */ PadFuncOptions(std::vector<int64_t> pad)  // NOLINT
      : pad_(std::move(pad)) {}
  EMBER_ARG(std::vector<int64_t>, pad);
  EMBER_ARG(mode_t, mode) = kConstant;
  EMBER_ARG(double, value) = 0;
};

}  // namespace functional

}  // namespace ember::nn
