// The pooling layers: their option checks, forwards and printing (LibTorch's in pretty_print,
// PyTorch's in extra_repr).
#include "ember/nn/pooling.h"

#include <sstream>
#include <string>

#include "ember/nn/functional/pooling.h"
#include "ops/pool_windows.h"

namespace ember::nn {
namespace {

// PyTorch's repr of a window setting: 2 when every dim has it, else (2, 3).
template <size_t D>
std::string python_window(const ExpandingArray<D>& values) {
  std::ostringstream os;
  bool same = true;
  for (size_t i = 1; i < D; ++i) same = same && (*values)[i] == (*values)[0];
  if (same) {
    os << (*values)[0];
    return os.str();
  }
  os << "(";
  for (size_t i = 0; i < D; ++i) os << (i ? ", " : "") << (*values)[i];
  os << ")";
  return os.str();
}

// PyTorch's repr of an adaptive output size: 3, (3, 4) or (3, None).
template <class output_size_t>
std::string python_output_size(const output_size_t& output_size) {
  std::ostringstream os;
  os << output_size;  // [3, None], or 3 for one dim
  if (output_size.size() == 1) return os.str();
  return "(" + os.str().substr(1, os.str().size() - 2) + ")";
}

std::string python_bool(bool value) { return value ? "True" : "False"; }

// The layer's window settings, checked as its op checks them, so that a bad layer fails when it
// is built rather than at its first forward.
template <size_t D>
void check_pool_window(const std::string& layer, const ExpandingArray<D>& kernel_size,
                       const ExpandingArray<D>& stride, const ExpandingArray<D>& padding) {
  ops::window_arg(layer.c_str(), "kernel_size", kernel_size, D, 1);
  ops::window_arg(layer.c_str(), "stride", stride, D, 1);
  ops::window_arg(layer.c_str(), "padding", padding, D, 0);
}

}  // namespace

// ---- AvgPool1d/2d/3d
template <size_t D, class Derived>
AvgPoolImpl<D, Derived>::AvgPoolImpl(const AvgPoolOptions<D>& options_)
    : Cloneable<Derived>("AvgPool" + std::to_string(D) + "d"), options(options_) {
  reset();
}

template <size_t D, class Derived>
void AvgPoolImpl<D, Derived>::reset() {
  check_pool_window(this->name(), options.kernel_size(), options.stride(), options.padding());
}

template <size_t D, class Derived>
std::string AvgPoolImpl<D, Derived>::extra_repr() const {
  return "kernel_size=" + python_window(options.kernel_size()) +
         ", stride=" + python_window(options.stride()) +
         ", padding=" + python_window(options.padding());
}

template <size_t D, class Derived>
void AvgPoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << this->name() << "(kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride() << ", padding=" << options.padding() << ")";
}

template class AvgPoolImpl<1, AvgPool1dImpl>;
template class AvgPoolImpl<2, AvgPool2dImpl>;
template class AvgPoolImpl<3, AvgPool3dImpl>;

Tensor AvgPool1dImpl::forward(const Tensor& input) {
  return functional::avg_pool1d(input, options);
}
Tensor AvgPool2dImpl::forward(const Tensor& input) {
  return functional::avg_pool2d(input, options);
}
Tensor AvgPool3dImpl::forward(const Tensor& input) {
  return functional::avg_pool3d(input, options);
}

// ---- MaxPool1d/2d/3d
template <size_t D, class Derived>
MaxPoolImpl<D, Derived>::MaxPoolImpl(const MaxPoolOptions<D>& options_)
    : Cloneable<Derived>("MaxPool" + std::to_string(D) + "d"), options(options_) {
  reset();
}

template <size_t D, class Derived>
void MaxPoolImpl<D, Derived>::reset() {
  check_pool_window(this->name(), options.kernel_size(), options.stride(), options.padding());
  ops::window_arg(this->name().c_str(), "dilation", options.dilation(), D, 1);
}

template <size_t D, class Derived>
std::string MaxPoolImpl<D, Derived>::extra_repr() const {
  return "kernel_size=" + python_window(options.kernel_size()) +
         ", stride=" + python_window(options.stride()) +
         ", padding=" + python_window(options.padding()) +
         ", dilation=" + python_window(options.dilation()) +
         ", ceil_mode=" + python_bool(options.ceil_mode());
}

template <size_t D, class Derived>
void MaxPoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::" << this->name()
         << "(kernel_size=" << options.kernel_size() << ", stride=" << options.stride()
         << ", padding=" << options.padding() << ", dilation=" << options.dilation()
         << ", ceil_mode=" << options.ceil_mode() << ")";
}

template class MaxPoolImpl<1, MaxPool1dImpl>;
template class MaxPoolImpl<2, MaxPool2dImpl>;
template class MaxPoolImpl<3, MaxPool3dImpl>;

Tensor MaxPool1dImpl::forward(const Tensor& input) {
  return functional::max_pool1d(input, options);
}
std::tuple<Tensor, Tensor> MaxPool1dImpl::forward_with_indices(const Tensor& input) {
  return functional::max_pool1d_with_indices(input, options);
}
Tensor MaxPool2dImpl::forward(const Tensor& input) {
  return functional::max_pool2d(input, options);
}
std::tuple<Tensor, Tensor> MaxPool2dImpl::forward_with_indices(const Tensor& input) {
  return functional::max_pool2d_with_indices(input, options);
}
Tensor MaxPool3dImpl::forward(const Tensor& input) {
  return functional::max_pool3d(input, options);
}
std::tuple<Tensor, Tensor> MaxPool3dImpl::forward_with_indices(const Tensor& input) {
  return functional::max_pool3d_with_indices(input, options);
}

// ---- AdaptiveAvgPool1d/2d/3d and AdaptiveMaxPool1d/2d/3d
template <size_t D, class output_size_t, class Derived>
AdaptiveAvgPoolImpl<D, output_size_t, Derived>::AdaptiveAvgPoolImpl(
    const AdaptiveAvgPoolOptions<output_size_t>& options_)
    : Cloneable<Derived>("AdaptiveAvgPool" + std::to_string(D) + "d"), options(options_) {}

template <size_t D, class output_size_t, class Derived>
std::string AdaptiveAvgPoolImpl<D, output_size_t, Derived>::extra_repr() const {
  return "output_size=" + python_output_size(options.output_size());
}

template <size_t D, class output_size_t, class Derived>
void AdaptiveAvgPoolImpl<D, output_size_t, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << this->name() << "(output_size=" << options.output_size() << ")";
}

template class AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl>;
template class AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveAvgPool2dImpl>;
template class AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveAvgPool3dImpl>;

Tensor AdaptiveAvgPool1dImpl::forward(const Tensor& input) {
  return functional::adaptive_avg_pool1d(input, options);
}
Tensor AdaptiveAvgPool2dImpl::forward(const Tensor& input) {
  return functional::adaptive_avg_pool2d(input, options);
}
Tensor AdaptiveAvgPool3dImpl::forward(const Tensor& input) {
  return functional::adaptive_avg_pool3d(input, options);
}

template <size_t D, class output_size_t, class Derived>
AdaptiveMaxPoolImpl<D, output_size_t, Derived>::AdaptiveMaxPoolImpl(
    const AdaptiveMaxPoolOptions<output_size_t>& options_)
    : Cloneable<Derived>("AdaptiveMaxPool" + std::to_string(D) + "d"), options(options_) {}

template <size_t D, class output_size_t, class Derived>
std::string AdaptiveMaxPoolImpl<D, output_size_t, Derived>::extra_repr() const {
  return "output_size=" + python_output_size(options.output_size());
}

template <size_t D, class output_size_t, class Derived>
void AdaptiveMaxPoolImpl<D, output_size_t, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << this->name() << "(output_size=" << options.output_size() << ")";
}

template class AdaptiveMaxPoolImpl<1, ExpandingArray<1>, AdaptiveMaxPool1dImpl>;
template class AdaptiveMaxPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveMaxPool2dImpl>;
template class AdaptiveMaxPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveMaxPool3dImpl>;

Tensor AdaptiveMaxPool1dImpl::forward(const Tensor& input) {
  return functional::adaptive_max_pool1d(input, options);
}
std::tuple<Tensor, Tensor> AdaptiveMaxPool1dImpl::forward_with_indices(const Tensor& input) {
  return functional::adaptive_max_pool1d_with_indices(input, options);
}
Tensor AdaptiveMaxPool2dImpl::forward(const Tensor& input) {
  return functional::adaptive_max_pool2d(input, options);
}
std::tuple<Tensor, Tensor> AdaptiveMaxPool2dImpl::forward_with_indices(const Tensor& input) {
  return functional::adaptive_max_pool2d_with_indices(input, options);
}
Tensor AdaptiveMaxPool3dImpl::forward(const Tensor& input) {
  return functional::adaptive_max_pool3d(input, options);
}
std::tuple<Tensor, Tensor> AdaptiveMaxPool3dImpl::forward_with_indices(const Tensor& input) {
  return functional::adaptive_max_pool3d_with_indices(input, options);
}

// ---- MaxUnpool1d/2d/3d
template <size_t D, class Derived>
MaxUnpoolImpl<D, Derived>::MaxUnpoolImpl(const MaxUnpoolOptions<D>& options_)
    : Cloneable<Derived>("MaxUnpool" + std::to_string(D) + "d"), options(options_) {
  reset();
}

template <size_t D, class Derived>
void MaxUnpoolImpl<D, Derived>::reset() {
  check_pool_window(this->name(), options.kernel_size(), options.stride(), options.padding());
}

namespace {
// F::max_unpool1d/2d/3d by D.
template <size_t D>
Tensor max_unpool_of(const Tensor& input, const Tensor& indices,
                     const functional::MaxUnpoolFuncOptions<D>& options) {
  if constexpr (D == 1) {
    return functional::max_unpool1d(input, indices, options);
  } else if constexpr (D == 2) {
    return functional::max_unpool2d(input, indices, options);
  } else {
    return functional::max_unpool3d(input, indices, options);
  }
}
}  // namespace

template <size_t D, class Derived>
Tensor MaxUnpoolImpl<D, Derived>::forward(const Tensor& input, const Tensor& indices,
                                          const std::optional<std::vector<int64_t>>& output_size) {
  return max_unpool_of<D>(input, indices,
                          functional::MaxUnpoolFuncOptions<D>(options.kernel_size())
                              .stride(options.stride())
                              .padding(options.padding())
                              .output_size(output_size));
}

template <size_t D, class Derived>
std::string MaxUnpoolImpl<D, Derived>::extra_repr() const {
  return "kernel_size=" + python_window(options.kernel_size()) +
         ", stride=" + python_window(options.stride()) +
         ", padding=" + python_window(options.padding());
}

template <size_t D, class Derived>
void MaxUnpoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << this->name() << "(kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride() << ", padding=" << options.padding() << ")";
}

template class MaxUnpoolImpl<1, MaxUnpool1dImpl>;
template class MaxUnpoolImpl<2, MaxUnpool2dImpl>;
template class MaxUnpoolImpl<3, MaxUnpool3dImpl>;

// ---- LPPool1d/2d
template <size_t D, class Derived>
LPPoolImpl<D, Derived>::LPPoolImpl(const LPPoolOptions<D>& options_)
    : Cloneable<Derived>("LPPool" + std::to_string(D) + "d"), options(options_) {
  reset();
}

template <size_t D, class Derived>
void LPPoolImpl<D, Derived>::reset() {
  check_pool_window<D>(this->name(), options.kernel_size(), options.stride(), 0);
}

template <size_t D, class Derived>
Tensor LPPoolImpl<D, Derived>::forward(const Tensor& input) {
  if constexpr (D == 1) {
    return functional::lp_pool1d(input, options);
  } else {
    return functional::lp_pool2d(input, options);
  }
}

template <size_t D, class Derived>
std::string LPPoolImpl<D, Derived>::extra_repr() const {
  std::ostringstream norm;
  norm << options.norm_type();
  return "norm_type=" + norm.str() + ", kernel_size=" + python_window(options.kernel_size()) +
         ", stride=" + python_window(options.stride()) +
         ", ceil_mode=" + python_bool(options.ceil_mode());
}

template <size_t D, class Derived>
void LPPoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::" << this->name() << "(norm_type=" << options.norm_type()
         << ", kernel_size=" << options.kernel_size() << ", stride=" << options.stride()
         << ", ceil_mode=" << options.ceil_mode() << ")";
}

template class LPPoolImpl<1, LPPool1dImpl>;
template class LPPoolImpl<2, LPPool2dImpl>;

}  // namespace ember::nn
