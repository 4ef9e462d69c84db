// InstanceNorm1d/2d/3d: the unbatched form, the choice of statistics and LibTorch's printing.
#include "ember/nn/instancenorm.h"

namespace ember::nn {

template <int64_t D, class Derived>
Tensor InstanceNormImpl<D, Derived>::forward(const Tensor& input) {
  detail::check_norm_input_dim(this->name(), input, D + 1, D + 2);
  const InstanceNormOptions& options = this->options;
  auto normalize = [&](const Tensor& batch) {
    return functional::instance_norm(
        batch, functional::InstanceNormFuncOptions()
                   .running_mean(this->running_mean)
                   .running_var(this->running_var)
                   .weight(this->weight)
                   .bias(this->bias)
                   .use_input_stats(this->is_training() || !options.track_running_stats())
                   .momentum(options.momentum())
                   .eps(options.eps()));
  };
  if (input.dim() == D + 1) return normalize(input.unsqueeze(0)).squeeze(0);  // unbatched
  return normalize(input);
}

template <int64_t D, class Derived>
void InstanceNormImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  const InstanceNormOptions& options = this->options;
  stream << std::boolalpha << "torch::nn::" << this->name() << "(" << options.num_features()
         << ", eps=" << options.eps() << ", momentum=" << options.momentum()
         << ", affine=" << options.affine()
         << ", track_running_stats=" << options.track_running_stats() << ")";
}

template class InstanceNormImpl<1, InstanceNorm1dImpl>;
template class InstanceNormImpl<2, InstanceNorm2dImpl>;
template class InstanceNormImpl<3, InstanceNorm3dImpl>;

}  // namespace ember::nn
