// nn::utils: clip_grad_norm_ / clip_grad_value_, torch.nn.utils' algorithm built from public,
// device-generic ops, so it runs unchanged on CUDA and never waits for the device on its own;
// parameters_to_vector / vector_to_parameters.
#include "ember/nn/clip_grad.h"

#include <cmath>
#include <sstream>
#include <string>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"

namespace ember::nn::utils {
namespace {

// Handles to the parameters' gradients: they share storage, so in-place writes reach p.grad().
std::vector<Tensor> defined_grads(const std::vector<Tensor>& parameters) {
  std::vector<Tensor> grads;
  for (const Tensor& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  return grads;
}

// A double as Python prints a float ("2.0", "inf"), so the error reads as PyTorch's.
std::string python_float(double v) {
  std::ostringstream os;
  if (std::isinf(v)) os << (v < 0 ? "-inf" : "inf");
  else os << v << (v == std::floor(v) && std::abs(v) < 1e16 ? ".0" : "");
  return os.str();
}

}  // namespace

Tensor clip_grad_norm_tensor_(const std::vector<Tensor>& parameters, double max_norm,
                              double norm_type, bool error_if_nonfinite) {
  NoGradGuard no_grad;  // clipping rescales gradients; it is not part of any graph
  std::vector<Tensor> grads = defined_grads(parameters);
  if (grads.empty()) return scalar_tensor(0.0);
  // The norm of the per-gradient norms is the norm over all elements (for inf, the max), and
  // the per-gradient norms meet on the first gradient's device, as in PyTorch.
  const Device device = grads[0].device();
  std::vector<Tensor> norms;
  norms.reserve(grads.size());
  for (const Tensor& g : grads) norms.push_back(norm(g, norm_type).to(device));
  Tensor total = norm(stack(norms), norm_type);
  if (error_if_nonfinite) {
    const double value = total.item<double>();  // the one host sync, and only when asked for
    EMBER_CHECK(std::isfinite(value), "[clip_grad_norm_] The total norm of order ",
                python_float(norm_type),
                " for gradients from `parameters` is non-finite, so it "
                "cannot be clipped. To disable this error and scale the gradients by the "
                "non-finite norm anyway, set `error_if_nonfinite=false`");
  }
  // Scaling by a coefficient clamped to 1 instead of testing total > max_norm on the host keeps
  // the step free of syncs; gradients within the bound are multiplied by exactly 1.
  Tensor coef = clamp(max_norm / (total + 1e-6), std::nullopt, 1.0);
  for (Tensor& g : grads) g.mul_(coef.to(g.device()));
  return total;
}

void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value) {
  NoGradGuard no_grad;
  for (Tensor& g : defined_grads(parameters)) g.clamp_(-clip_value, clip_value);
}

Tensor parameters_to_vector(const std::vector<Tensor>& parameters) {
  std::vector<Tensor> flat;
  flat.reserve(parameters.size());
  for (const Tensor& p : parameters) {
    EMBER_CHECK(p.device() == parameters.front().device(),
                "[parameters_to_vector] Found two parameters on different devices, this is "
                "currently not supported (",
                parameters.front().device(), " and ", p.device(), ")");
    flat.push_back(p.view(-1));
  }
  return cat(flat);
}

void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters) {
  EMBER_CHECK_T(TypeError, vec.dim() == 1, "[vector_to_parameters] expected a 1-D vector, got ",
                vec.dim(), " dims (shape ", vec.sizes(), ")");
  int64_t total = 0;
  for (const Tensor& p : parameters) total += p.numel();
  EMBER_CHECK_T(ValueError, total == vec.numel(), "[vector_to_parameters] the vector has ",
                vec.numel(), " elements, the parameters ", total);
  int64_t offset = 0;
  for (const Tensor& p : parameters) {
    const int64_t n = p.numel();
    p.set_data(vec.slice(0, offset, offset + n).view_as(p).detach());
    offset += n;
  }
}

}  // namespace ember::nn::utils
