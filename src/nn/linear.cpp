// nn::Linear, Flatten, Unflatten and Bilinear.
#include "ember/nn/linear.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>
#include <vector>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/nn/init.h"
#include "ember/ops.h"

namespace ember::nn {

LinearImpl::LinearImpl(const LinearOptions& options_) : Cloneable("Linear"), options(options_) {
  reset();
}

void LinearImpl::reset() {
  int64_t in = options.in_features(), out = options.out_features();
  EMBER_CHECK_T(ValueError, in >= 0 && out >= 0,
                "[Linear] in_features and out_features must be "
                "non-negative, got ",
                in, " and ", out);
  weight = register_parameter("weight", empty({out, in}));
  if (options.bias()) bias = register_parameter("bias", empty({out}));
  reset_parameters();
}

void LinearImpl::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    int64_t in = options.in_features();
    double bound = in > 0 ? 1.0 / std::sqrt(static_cast<double>(in)) : 0.0;
    init::uniform_(bias, -bound, bound);
  }
}

Tensor LinearImpl::forward(const Tensor& input) { return linear(input, weight, bias); }

std::string LinearImpl::extra_repr() const {
  return "in_features=" + std::to_string(options.in_features()) +
         ", out_features=" + std::to_string(options.out_features()) +
         ", bias=" + (bias.defined() ? "True" : "False");
}

void LinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Linear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features() << ", bias=" << bias.defined() << ")";
}

Tensor FlattenImpl::forward(const Tensor& input) {
  return input.flatten(options.start_dim(), options.end_dim());
}
std::string FlattenImpl::extra_repr() const {
  return "start_dim=" + std::to_string(options.start_dim()) +
         ", end_dim=" + std::to_string(options.end_dim());
}
void FlattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Flatten(" << extra_repr() << ")";
}

Tensor UnflattenImpl::forward(const Tensor& input) {
  return input.unflatten(options.dim(), options.sizes());
}

void UnflattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Unflatten(dim=" << options.dim() << ", unflattened_size={";
  const std::vector<int64_t>& sizes = options.sizes();
  for (size_t i = 0; i < sizes.size(); ++i) stream << (i ? ", " : "") << sizes[i];
  stream << "})";
}

BilinearImpl::BilinearImpl(const BilinearOptions& options_)
    : Cloneable("Bilinear"), options(options_) {
  reset();
}

void BilinearImpl::reset() {
  const int64_t in1 = options.in1_features(), in2 = options.in2_features(),
                out = options.out_features();
  EMBER_CHECK_T(ValueError, in1 >= 0 && in2 >= 0 && out >= 0,
                "[Bilinear] in1_features, in2_features and out_features must be non-negative, "
                "got ",
                in1, ", ", in2, " and ", out);
  weight = register_parameter("weight", empty({out, in1, in2}));
  if (options.bias()) bias = register_parameter("bias", empty({out}));
  reset_parameters();
}

void BilinearImpl::reset_parameters() {
  const int64_t in1 = weight.size(1);
  const double bound = in1 > 0 ? 1.0 / std::sqrt(static_cast<double>(in1)) : 0.0;
  init::uniform_(weight, -bound, bound);
  if (bias.defined()) init::uniform_(bias, -bound, bound);
}

Tensor BilinearImpl::forward(const Tensor& input1, const Tensor& input2) {
  return bilinear(input1, input2, weight, bias);
}

void BilinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Bilinear(in1_features=" << options.in1_features()
         << ", in2_features=" << options.in2_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias() << ")";
}

}  // namespace ember::nn
