// The activation layers with options: ReLU (inplace) and GELU (approximate).
#include "ember/nn/activation.h"

#include <ostream>
#include <utility>

namespace ember::nn {

Tensor ReLUImpl::forward(Tensor input) { return functional::relu(std::move(input), options); }

void ReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU(";
  if (options.inplace()) stream << "inplace=true";
  stream << ")";
}

Tensor GELUImpl::forward(const Tensor& input) { return functional::gelu(input, options); }

}  // namespace ember::nn
