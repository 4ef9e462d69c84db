// The activation layers' printing as LibTorch's, GELU's forward, Hardtanh's check, PReLU's
// slopes and Softmax2d.
#include "ember/nn/activation.h"

#include <ostream>
#include <sstream>
#include <string>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/reduce.h"

namespace ember::nn {
namespace {

// A setting as `stream << value` writes it (0.01, 1, 20).
std::string text(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

// torch::nn::Name(settings): LibTorch adds `inplace=true` only when set, after the other
// settings if there are any.
void print_with_inplace(std::ostream& stream, const char* name, const std::string& settings,
                        bool inplace) {
  stream << "torch::nn::" << name << "(" << settings;
  if (inplace) stream << (settings.empty() ? "" : ", ") << "inplace=true";
  stream << ")";
}

}  // namespace

void ReLUImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "ReLU", "", options.inplace());
}

void ReLU6Impl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "ReLU6", "", options.inplace());
}

void SELUImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "SELU", "", options.inplace());
}

void LeakyReLUImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "LeakyReLU", "negative_slope=" + text(options.negative_slope()),
                     options.inplace());
}

Tensor RReLUImpl::forward(Tensor input) {
  return functional::rrelu(std::move(input), functional::RReLUFuncOptions()
                                                 .lower(options.lower())
                                                 .upper(options.upper())
                                                 .training(is_training())
                                                 .inplace(options.inplace()));
}

void RReLUImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "RReLU",
                     "lower=" + text(options.lower()) + ", upper=" + text(options.upper()),
                     options.inplace());
}

void ELUImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "ELU", "alpha=" + text(options.alpha()), options.inplace());
}

void CELUImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "CELU", "alpha=" + text(options.alpha()), options.inplace());
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
  print_with_inplace(stream, "Hardtanh",
                     "min_val=" + text(options.min_val()) + ", max_val=" + text(options.max_val()),
                     options.inplace());
}

void ThresholdImpl::pretty_print(std::ostream& stream) const {
  print_with_inplace(stream, "Threshold",
                     "threshold=" + text(options.threshold()) + ", value=" + text(options.value()),
                     options.inplace());
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
