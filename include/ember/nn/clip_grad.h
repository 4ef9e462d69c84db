// nn::utils::clip_grad_norm_ and clip_grad_value_: rescale or clamp the gradients of parameters
// in place between backward() and the optimizer step, as torch.nn.utils.
#pragma once

#include <initializer_list>
#include <vector>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::nn::utils {

// Scales every gradient by min(1, max_norm / (total_norm + 1e-6)), where total_norm is the
// norm_type-norm (inf: the largest |g|) of all gradients together, and returns total_norm: a
// 0-dim tensor on the first gradient's device, as Python's PyTorch (LibTorch returns a double).
// Nothing waits for the GPU unless error_if_nonfinite, which throws ember::Error when total_norm
// is NaN or infinite instead of scaling by it. Parameters without a gradient are skipped; with
// none, the result is a CPU 0.
EMBER_API Tensor clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm,
                                 double norm_type = 2.0, bool error_if_nonfinite = false);
// Overloads as LibTorch's: clip_grad_norm_({a, b}, 1.0) and clip_grad_norm_(p, 1.0).
inline Tensor clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm,
                              double norm_type = 2.0, bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>(parameters), max_norm, norm_type, error_if_nonfinite);
}
inline Tensor clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>{parameter}, max_norm, norm_type, error_if_nonfinite);
}

// Clamps every gradient in place to [-clip_value, clip_value]; parameters without one are skipped.
EMBER_API void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value);
inline void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value) {
  clip_grad_value_(std::vector<Tensor>(parameters), clip_value);
}
inline void clip_grad_value_(const Tensor& parameter, double clip_value) {
  clip_grad_value_(std::vector<Tensor>{parameter}, clip_value);
}

}  // namespace ember::nn::utils
