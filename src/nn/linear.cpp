// nn::Linear, Flatten and Unflatten.
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
  const int64_t dim = ember::detail::wrap_dim(options.dim(), input.dim(), "unflatten");
  const std::vector<int64_t>& sizes = options.sizes();
  const auto inferred = std::count(sizes.begin(), sizes.end(), -1);
  int64_t known = 1;
  for (int64_t size : sizes)
    if (size != -1) known *= size;
  EMBER_CHECK_T(ValueError, inferred <= 1, "[unflatten] only one dimension can be inferred");
  const int64_t length = input.size(dim);
  EMBER_CHECK_T(ValueError, inferred ? known != 0 && length % known == 0 : known == length,
                "[unflatten] unflatten: Provided sizes ", IntArrayRef(sizes),
                " don't multiply up to the size of dim ", options.dim(), " (", length,
                ") in the input tensor");
  std::vector<int64_t> shape(input.sizes().begin(), input.sizes().begin() + dim);
  for (int64_t size : sizes) shape.push_back(size == -1 ? length / known : size);
  shape.insert(shape.end(), input.sizes().begin() + dim + 1, input.sizes().end());
  return input.view(shape);
}

void UnflattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Unflatten(dim=" << options.dim() << ", unflattened_size={";
  const std::vector<int64_t>& sizes = options.sizes();
  for (size_t i = 0; i < sizes.size(); ++i) stream << (i ? ", " : "") << sizes[i];
  stream << "})";
}

}  // namespace ember::nn
