// F::pad with LibTorch 1.13's PadFuncOptions: constant mode through constant_pad_nd, the other
// modes through index_pad_nd, with PyTorch 1.13's rule on which inputs they accept.
#pragma once

#include <string>
#include <variant>

#include "ember/error.h"
#include "ember/nn/options/padding.h"
#include "ember/nn_ops.h"

namespace ember::nn::functional {

inline Tensor pad(const Tensor& input, const PadFuncOptions& options) {
  const auto& pad_list = options.pad();
  if (std::holds_alternative<enumtype::kConstant>(options.mode())) {
    return ember::constant_pad_nd(input, pad_list, options.value());
  }
  if (options.value() != 0)  // LibTorch 1.13 refuses it too
    throw ValueError("[pad] padding mode " + enumtype::get_enum_name(options.mode()) +
                     " takes no value (got " + std::to_string(options.value()) +
                     "); leave value at 0 or use kConstant");
  const char* mode = std::holds_alternative<enumtype::kReflect>(options.mode())     ? "reflect"
                     : std::holds_alternative<enumtype::kReplicate>(options.mode()) ? "replicate"
                                                                                    : "circular";
  return ember::index_pad_nd(input, pad_list, mode);
}

}  // namespace ember::nn::functional
