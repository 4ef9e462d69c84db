// GroupNorm and LocalResponseNorm: their state, forward and LibTorch's printing.
#include "ember/nn/normalization.h"

#include "ember/factory.h"
#include "ember/nn/init.h"

namespace ember::nn {

// ---- GroupNorm
GroupNormImpl::GroupNormImpl(const GroupNormOptions& options_)
    : Cloneable("GroupNorm"), options(options_) {
  reset();
}

void GroupNormImpl::reset() {
  if (!options.affine()) return;
  weight = register_parameter("weight", empty({options.num_channels()}));
  bias = register_parameter("bias", empty({options.num_channels()}));
  reset_parameters();
}

void GroupNormImpl::reset_parameters() {
  if (!options.affine()) return;
  init::ones_(weight);
  init::zeros_(bias);
}

Tensor GroupNormImpl::forward(const Tensor& input) {
  return functional::group_norm(input, functional::GroupNormFuncOptions(options.num_groups())
                                           .weight(weight)
                                           .bias(bias)
                                           .eps(options.eps()));
}

void GroupNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::GroupNorm(" << options.num_groups() << ", "
         << options.num_channels() << ", eps=" << options.eps() << ", affine=" << options.affine()
         << ")";
}

// ---- LocalResponseNorm
void LocalResponseNormImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LocalResponseNorm(" << options.size() << ", alpha=" << options.alpha()
         << ", beta=" << options.beta() << ", k=" << options.k() << ")";
}

}  // namespace ember::nn
