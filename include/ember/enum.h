// LibTorch's enum tags (torch/enum.h): each setting an options class chooses from a short list
// (a loss's reduction, an initialiser's fan mode and nonlinearity, a padding mode) is a
// std::variant of empty tag types, set with the constants ember::kSum, kFanIn, kReLU, ...
// (torch::kSum through <ember/torch.h>). Also at::Reduction, the int the loss ops take.
#pragma once

#include <string>
#include <variant>

#include "ember/error.h"

// Every tag LibTorch 1.13 declares, once: X(name) makes enumtype::k<name> and ember::k<name>.
// Laid out by hand: clang-format reflows macro lists differently on each pass.
// clang-format off
#define EMBER_FORALL_ENUM_TAGS(X)                                                        \
  X(Linear) X(Conv1D) X(Conv2D) X(Conv3D) X(ConvTranspose1D) X(ConvTranspose2D)          \
  X(ConvTranspose3D) X(Sigmoid) X(Tanh) X(ReLU) X(GELU) X(SiLU) X(Mish) X(LeakyReLU)     \
  X(FanIn) X(FanOut) X(Constant) X(Reflect) X(Replicate) X(Circular) X(Nearest)          \
  X(Bilinear) X(Bicubic) X(Trilinear) X(Area) X(NearestExact) X(Sum) X(Mean) X(Max)      \
  X(None) X(BatchMean) X(Zeros) X(Border) X(Reflection) X(RNN_TANH) X(RNN_RELU) X(LSTM)  \
  X(GRU) X(Valid) X(Same)
// clang-format on

namespace ember {
namespace enumtype {
#define EMBER_ENUM_TAG(name) \
  struct k##name {           \
    constexpr k##name() {}   \
  };
EMBER_FORALL_ENUM_TAGS(EMBER_ENUM_TAG)
#undef EMBER_ENUM_TAG

// "kSum" for kSum: what error messages and pretty_print show.
struct _compute_enum_name {
#define EMBER_ENUM_NAME(name) \
  std::string operator()(const k##name&) const { return "k" #name; }
  EMBER_FORALL_ENUM_TAGS(EMBER_ENUM_NAME)
#undef EMBER_ENUM_NAME
};

template <typename V>
std::string get_enum_name(const V& variant_enum) {
  return std::visit(_compute_enum_name{}, variant_enum);
}
}  // namespace enumtype

#define EMBER_ENUM_CONSTANT(name) inline constexpr enumtype::k##name k##name{};
EMBER_FORALL_ENUM_TAGS(EMBER_ENUM_CONSTANT)
#undef EMBER_ENUM_CONSTANT

// at::Reduction::Reduction: how a loss op folds its per-element losses (PyTorch's numbering,
// which the loss ops take as an int64_t).
namespace Reduction {
enum Reduction { None, Mean, Sum, END };
}  // namespace Reduction

namespace enumtype {
// The Reduction of a reduction_t (kNone, kMean or kSum).
template <typename V>
Reduction::Reduction reduction_get_enum(const V& variant_enum) {
  if (std::holds_alternative<kNone>(variant_enum)) return Reduction::None;
  if (std::holds_alternative<kMean>(variant_enum)) return Reduction::Mean;
  if (std::holds_alternative<kSum>(variant_enum)) return Reduction::Sum;
  throw ValueError(get_enum_name(variant_enum) + " is not a valid value for reduction");
}
}  // namespace enumtype
}  // namespace ember
