// The activation layers' printing as LibTorch's, GELU's forward, Hardtanh's check, PReLU's
// slopes and Softmax2d.
#include "ember/nn/activation.h"

#include <ostream>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/reduce.h"

namespace ember::nn {
namespace {

// LibTorch writes `inplace=true` only when set, after the other settings if there are any.
void print_inplace(std::ostream& stream, bool inplace, const char* separator) {
  if (inplace) stream << separator << "inplace=true";
}

}  // namespace

void ReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}

void ReLU6Impl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU6(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}

void SELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::SELU(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}

void LeakyReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LeakyReLU(negative_slope=" << options.negative_slope();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}

void ELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ELU(alpha=" << options.alpha();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}

void CELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CELU(alpha=" << options.alpha();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}

void SoftplusImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softplus(beta=" << options.beta() << ", threshold=" << options.threshold()
         << ")";
}

void SoftshrinkImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softshrink(" << options.lambda() << ")";
}

void HardshrinkImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardshrink(" << options.lambda() << ")";
}

void GLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::GLU(dim=" << options.dim() << ")";
}

Tensor GELUImpl::forward(const Tensor& input) { return functional::gelu(input, options); }

void HardtanhImpl::reset() {
  EMBER_CHECK(options.max_val() > options.min_val(), "max_val must be greater than min_val");
}

void HardtanhImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardtanh(min_val=" << options.min_val()
         << ", max_val=" << options.max_val();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}

void ThresholdImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Threshold(threshold=" << options.threshold()
         << ", value=" << options.value();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}

void PReLUImpl::reset() {
  weight = register_parameter("weight", full({options.num_parameters()}, options.init()));
}

void PReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PReLU(num_parameters=" << options.num_parameters() << ")";
}

Tensor Softmax2dImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 4 || input.dim() == 3,
              "Softmax2d requires a 3D or 4D tensor as input");
  return ember::softmax(input, -3);
}

}  // namespace ember::nn
