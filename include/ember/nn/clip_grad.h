// nn::utils: clip_grad_norm_ and clip_grad_value_ (rescale or clamp the parameters' gradients in
// place between backward() and the optimizer step) and parameters_to_vector /
// vector_to_parameters, as LibTorch's torch/nn/utils.
#pragma once

#include <initializer_list>
#include <vector>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::nn::utils {

// Scales every gradient by min(1, max_norm / (total_norm + 1e-6)), where total_norm is the
// norm_type-norm (inf: the largest |g|) of all gradients together, and returns total_norm as a
// 0-dim tensor on the first gradient's device, as Python's PyTorch does. Nothing waits for the
// GPU unless error_if_nonfinite, which throws ember::Error when total_norm is NaN or infinite
// instead of scaling by it. Parameters without a gradient are skipped; with none, the result is
// a CPU 0.
EMBER_API Tensor clip_grad_norm_tensor_(const std::vector<Tensor>& parameters, double max_norm,
                                        double norm_type = 2.0, bool error_if_nonfinite = false);

// LibTorch's form: the same, returning total_norm as a double (which waits for the device).
inline double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm,
                              double norm_type = 2.0, bool error_if_nonfinite = false) {
  return clip_grad_norm_tensor_(parameters, max_norm, norm_type, error_if_nonfinite).item<double>();
}
inline double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm,
                              double norm_type = 2.0, bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>(parameters), max_norm, norm_type, error_if_nonfinite);
}
inline double clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type = 2.0,
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

// Every parameter flattened and concatenated, in order (they must share a device).
EMBER_API Tensor parameters_to_vector(const std::vector<Tensor>& parameters);
// The inverse: each parameter's data becomes its slice of vec (a view of vec's storage).
EMBER_API void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters);

}  // namespace ember::nn::utils
