// The layers over nn_ops.h: construction, PyTorch's initialisation and printed settings.
#include "ember/nn/layers.h"

#include <array>
#include <cmath>
#include <sstream>
#include <utility>
#include <variant>

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/nn/functional/batchnorm.h"
#include "ember/nn/functional/conv.h"
#include "ember/nn/functional/dropout.h"
#include "ember/nn/functional/embedding.h"
#include "ember/nn/init.h"
#include "ember/nn_ops.h"
#include "nn/conv_common.h"
#include "ops/padding_idx.h"
#include "ops/window_args.h"

namespace ember::nn {
namespace {

// LibTorch's ExpandingArray form: [3, 3].
std::string bracketed(const std::vector<int64_t>& v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  os << "]";
  return os.str();
}

// The window settings as the op checks them (ops/window_args.h), so that a bad layer fails when
// it is built rather than at its first forward.
void check_window(const char* op, const ExpandingArray<2>& kernel_size,
                  const ExpandingArray<2>& stride, const ExpandingArray<2>& dilation) {
  ops::window_arg(op, "kernel_size", kernel_size, 2, 1);
  ops::window_arg(op, "stride", stride, 2, 1);
  ops::window_arg(op, "dilation", dilation, 2, 1);
}

std::string number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

// ---- Conv2d
Conv2dImpl::Conv2dImpl(Conv2dOptions options_) : Cloneable("Conv2d"), options(std::move(options_)) {
  reset();
}

void Conv2dImpl::reset() {
  check_window("Conv2d", options.kernel_size(), options.stride(), options.dilation());
  detail::conv_pad_widths("Conv2d", options);  // checks the padding
  int64_t in = options.in_channels(), out = options.out_channels(), g = options.groups();
  const auto& kernel_size = *options.kernel_size();
  EMBER_CHECK_T(ValueError, g > 0 && in % g == 0 && out % g == 0, "[Conv2d] in_channels (", in,
                ") and out_channels (", out, ") must both be divisible by groups (", g, ")");
  weight = register_parameter("weight", empty({out, in / g, kernel_size[0], kernel_size[1]}));
  if (options.bias()) bias = register_parameter("bias", empty({out}));
  reset_parameters();
}

void Conv2dImpl::reset_parameters() { detail::conv_reset_parameters(weight, bias); }

Tensor Conv2dImpl::forward(const Tensor& input) {
  // As LibTorch's ConvNdImpl: a non-zeros padding_mode pads with F::pad (the padding reversed,
  // each entry twice), then convolves unpadded.
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode())) {
    return conv2d(detail::pad_for_conv(input, options.padding_mode(),
                                       detail::conv_pad_widths("Conv2d", options)),
                  weight, bias, options.stride(), 0, options.dilation(), options.groups());
  }
  return functional::detail::conv2d(input, weight, bias, options.stride(), options.padding(),
                                    options.dilation(), options.groups());
}

std::string Conv2dImpl::extra_repr() const {
  return detail::conv_extra_repr<2>(options, bias.defined());
}

void Conv2dImpl::pretty_print(std::ostream& stream) const {
  detail::conv_pretty_print<2>(stream, "Conv2d", options);
}

// ---- BatchNorm
void detail::check_norm_input_dim(const std::string& layer, const Tensor& input, int64_t low,
                                  int64_t high) {
  EMBER_CHECK_T(ValueError, input.dim() >= low && input.dim() <= high, "[", layer, "] expected ",
                low == high ? "" : std::to_string(low) + "D or ", high, "D input (got ",
                input.dim(), "D input)");
}

template <class Derived>
Tensor BatchNormImplBase<Derived>::forward(const Tensor& input) {
  detail::check_norm_input_dim(this->name(), input, dims_low_, dims_high_);
  const bool training = this->is_training();
  const BatchNormOptions& options = this->options;
  Tensor& num_batches_tracked = this->num_batches_tracked;
  double momentum = options.momentum().value_or(0.0);
  if (training && num_batches_tracked.defined()) {
    {
      NoGradGuard no_grad;
      num_batches_tracked.add_(1);
    }
    // No momentum: the cumulative average, as LibTorch (reading the count syncs, as there).
    if (!options.momentum()) momentum = 1.0 / num_batches_tracked.item<double>();
  }
  return functional::batch_norm(input, this->running_mean, this->running_var,
                                functional::BatchNormFuncOptions()
                                    .weight(this->weight)
                                    .bias(this->bias)
                                    .training(training || !this->running_mean.defined())
                                    .momentum(momentum)
                                    .eps(options.eps()));
}

// PyTorch prints an unset momentum as None.
static std::string momentum_text(const std::optional<double>& momentum) {
  return momentum ? number(*momentum) : "None";
}

template <class Derived>
std::string BatchNormImplBase<Derived>::extra_repr() const {
  const BatchNormOptions& options = this->options;
  return std::to_string(options.num_features()) + ", eps=" + number(options.eps()) +
         ", momentum=" + momentum_text(options.momentum()) +
         ", affine=" + (this->weight.defined() ? "True" : "False") +
         ", track_running_stats=" + (this->running_mean.defined() ? "True" : "False");
}

template <class Derived>
void BatchNormImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const BatchNormOptions& options = this->options;
  stream << std::boolalpha << "torch::nn::" << this->name() << "(" << options.num_features()
         << ", eps=" << options.eps() << ", momentum=" << momentum_text(options.momentum())
         << ", affine=" << this->weight.defined()
         << ", track_running_stats=" << this->running_mean.defined() << ")";
}

template class BatchNormImplBase<BatchNorm1dImpl>;
template class BatchNormImplBase<BatchNorm2dImpl>;
template class BatchNormImplBase<BatchNorm3dImpl>;

// ---- LayerNorm
LayerNormImpl::LayerNormImpl(LayerNormOptions options_)
    : Cloneable("LayerNorm"), options(std::move(options_)) {
  reset();
}

void LayerNormImpl::reset() {
  if (options.elementwise_affine()) {
    weight = register_parameter("weight", ones(options.normalized_shape()));
    bias = register_parameter("bias", zeros(options.normalized_shape()));
  }
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  return layer_norm(input, options.normalized_shape(), weight, bias, options.eps());
}

std::string LayerNormImpl::extra_repr() const {
  return detail::python_tuple(options.normalized_shape()) + ", eps=" + number(options.eps()) +
         ", elementwise_affine=" + (weight.defined() ? "True" : "False");
}

void LayerNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LayerNorm(" << bracketed(options.normalized_shape())
         << ", eps=" << options.eps() << ", elementwise_affine=" << weight.defined() << ")";
}

// ---- Embedding
EmbeddingImpl::EmbeddingImpl(EmbeddingOptions options_)
    : Cloneable("Embedding"), options(std::move(options_)) {
  reset();
}

void EmbeddingImpl::reset() {
  int64_t n = options.num_embeddings(), dim = options.embedding_dim();
  options.padding_idx() = ops::normalize_padding_idx("Embedding", options.padding_idx(), n);
  EMBER_CHECK_T(NotImplementedError, !options.sparse(),
                "[Embedding] sparse gradients are not supported by ember: leave sparse false (the "
                "gradient is dense)");
  if (options._weight().defined()) {
    EMBER_CHECK_T(ValueError, options._weight().sizes() == IntArrayRef({n, dim}),
                  "[Embedding] Shape of _weight does not match num_embeddings and embedding_dim: ",
                  options._weight().sizes(), " vs [", n, ", ", dim, "]");
    weight = register_parameter("weight", options._weight());
    return;
  }
  weight = register_parameter("weight", empty({n, dim}));
  reset_parameters();
}

void EmbeddingImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx()) {
    NoGradGuard no_grad;
    weight[*options.padding_idx()].zero_();
  }
}

Tensor EmbeddingImpl::forward(const Tensor& indices) {
  return functional::embedding(indices, weight,
                               functional::EmbeddingFuncOptions()
                                   .padding_idx(options.padding_idx())
                                   .max_norm(options.max_norm())
                                   .norm_type(options.norm_type())
                                   .scale_grad_by_freq(options.scale_grad_by_freq())
                                   .sparse(options.sparse()));
}

std::string EmbeddingImpl::extra_repr() const {
  std::string s =
      std::to_string(options.num_embeddings()) + ", " + std::to_string(options.embedding_dim());
  if (options.padding_idx()) s += ", padding_idx=" + std::to_string(*options.padding_idx());
  return s;
}

void EmbeddingImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Embedding(num_embeddings=" << options.num_embeddings()
         << ", embedding_dim=" << options.embedding_dim();
  if (options.padding_idx()) stream << ", padding_idx=" << *options.padding_idx();
  if (options.max_norm()) stream << ", max_norm=" << *options.max_norm();
  if (options.norm_type() != 2) stream << ", norm_type=" << options.norm_type();
  if (options.scale_grad_by_freq())
    stream << ", scale_grad_by_freq=" << std::boolalpha << options.scale_grad_by_freq();
  if (options.sparse()) stream << ", sparse=" << std::boolalpha << options.sparse();
  stream << ")";
}

// ---- Dropout
DropoutImpl::DropoutImpl(const DropoutOptions& options_) : Cloneable("Dropout"), options(options_) {
  reset();
}

void DropoutImpl::reset() {
  double p = options.p();
  EMBER_CHECK_T(ValueError, p >= 0.0 && p <= 1.0,
                "[Dropout] dropout probability has to be "
                "between 0 and 1, but got ",
                p);
}

Tensor DropoutImpl::forward(Tensor input) {
  return functional::dropout(std::move(input), functional::DropoutFuncOptions()
                                                   .p(options.p())
                                                   .training(is_training())
                                                   .inplace(options.inplace()));
}

std::string DropoutImpl::extra_repr() const {
  return "p=" + number(options.p()) + ", inplace=" + (options.inplace() ? "True" : "False");
}
void DropoutImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Dropout(p=" << options.p()
         << ", inplace=" << options.inplace() << ")";
}

}  // namespace ember::nn
