// What the loss ops share: their reduction argument, checked, ATen's apply_loss_reduction, and
// the shape checks whose messages name the op and both shapes.
#pragma once

#include <cstdint>

#include "core/check.h"
#include "ember/enum.h"
#include "ember/tensor.h"
#include "kernels/tensor_iter.h"

namespace ember::ops {

// The int a loss op takes as its reduction, checked.
inline Reduction::Reduction loss_reduction(int64_t reduction, const char* op) {
  EMBER_CHECK_T(ValueError, reduction >= Reduction::None && reduction < Reduction::END, "[", op,
                "] ", reduction,
                " is not a valid value for reduction: pass at::Reduction::None, Mean or Sum");
  return static_cast<Reduction::Reduction>(reduction);
}

// The per-element losses as they are (None), summed, or averaged over every element.
inline Tensor apply_loss_reduction(const Tensor& losses, Reduction::Reduction reduction) {
  if (reduction == Reduction::None) return losses;
  return reduction == Reduction::Sum ? losses.sum() : losses.mean();
}

// The input and target of an elementwise loss broadcast together, as its ops will need: else
// the error names the loss and both shapes.
inline void check_loss_shapes(const char* op, const Tensor& input, const Tensor& target) {
  int64_t shape[detail::kMaxDims];
  int ndim = 0;
  kernels::broadcast_shapes(op, input.sizes(), target.sizes(), shape, &ndim);
}

// An optional weight (named `name`) broadcasts to the input's shape, not beyond it.
inline void check_weight_shape(const char* op, const char* name, const Tensor& weight,
                               const Tensor& input) {
  if (!weight.defined()) return;
  int64_t shape[detail::kMaxDims];
  int ndim = 0;
  kernels::broadcast_shapes(op, input.sizes(), weight.sizes(), shape, &ndim);
  EMBER_CHECK_T(ValueError, IntArrayRef(shape, static_cast<size_t>(ndim)) == input.sizes(), "[", op,
                "] ", name, " of shape ", weight.sizes(),
                " doesn't match the broadcast shape: it must broadcast to the input's shape ",
                input.sizes());
}

}  // namespace ember::ops
