// ConvTranspose1d/2d/3d: construction, PyTorch's initialisation, the output_size of forward and
// the printed settings.
#include "ember/nn/conv_transpose.h"

#include <cmath>
#include <sstream>
#include <tuple>
#include <utility>
#include <variant>

#include "core/check.h"
#include "ember/conv_transpose_ops.h"
#include "ember/factory.h"
#include "ember/nn/init.h"
#include "nn/conv_common.h"
#include "ops/conv_checks.h"

namespace ember::nn {

namespace {

// Each of `values` at least `min`; the message names the layer and the option.
template <size_t D>
void convt_layer_arg(const std::string& layer, const char* name, const ExpandingArray<D>& values,
                     int64_t min) {
  for (int64_t v : *values)
    EMBER_CHECK_T(ValueError, v >= min, "[", layer, "] ", name, " must be ",
                  min == 0 ? "non-negative" : "positive", ", got ", values);
}

template <size_t D>
bool convt_all_equal(const ExpandingArray<D>& values, int64_t v) {
  for (int64_t x : *values)
    if (x != v) return false;
  return true;
}

std::string convt_list(const std::vector<int64_t>& v) {
  std::ostringstream os;
  os << IntArrayRef(v);
  return os.str();
}

}  // namespace

template <size_t D, class Derived>
ConvTransposeNdImpl<D, Derived>::ConvTransposeNdImpl(ConvTransposeOptions<D> options_)
    : Cloneable<Derived>("ConvTranspose" + std::to_string(D) + "d"), options(std::move(options_)) {
  reset();
}

template <size_t D, class Derived>
void ConvTransposeNdImpl<D, Derived>::reset() {
  const std::string& layer = this->name();
  // LibTorch refuses these in forward, PyTorch when the layer is made: here, both.
  EMBER_CHECK_T(ValueError, std::holds_alternative<enumtype::kZeros>(options.padding_mode()), "[",
                layer, "] Only `zeros` padding mode is supported for ", layer, " (got ",
                enumtype::get_enum_name(options.padding_mode()),
                "); pad the input with F::pad first");
  convt_layer_arg(layer, "kernel_size", options.kernel_size(), 1);
  convt_layer_arg(layer, "stride", options.stride(), 1);
  convt_layer_arg(layer, "padding", options.padding(), 0);
  convt_layer_arg(layer, "output_padding", options.output_padding(), 0);
  convt_layer_arg(layer, "dilation", options.dilation(), 1);
  const int64_t in = options.in_channels(), out = options.out_channels(), g = options.groups();
  EMBER_CHECK_T(ValueError, g > 0 && in % g == 0 && out % g == 0, "[", layer, "] in_channels (", in,
                ") and out_channels (", out, ") must both be divisible by groups (", g, ")");
  std::vector<int64_t> shape{in, out / g};
  for (int64_t k : *options.kernel_size()) shape.push_back(k);
  weight = this->register_parameter("weight", ember::empty(shape));
  if (options.bias()) bias = this->register_parameter("bias", ember::empty({out}));
  reset_parameters();
}

template <size_t D, class Derived>
void ConvTransposeNdImpl<D, Derived>::reset_parameters() {
  detail::conv_reset_parameters(weight, bias);
}

// As PyTorch's _ConvTransposeNd._output_padding (LibTorch's, which is the same for a batched
// input without dilation).
template <size_t D, class Derived>
std::vector<int64_t> ConvTransposeNdImpl<D, Derived>::_output_padding(
    const Tensor& input, const std::optional<IntArrayRef>& output_size) const {
  const auto& op = *options.output_padding();
  if (!output_size) return std::vector<int64_t>(op.begin(), op.end());
  const std::string& layer = this->name();
  const size_t k = D;
  const bool batched = input.dim() == static_cast<int64_t>(k) + 2;
  const size_t non_spatial = batched ? 2 : 1;
  IntArrayRef size = *output_size;
  if (size.size() == non_spatial + k) size = size.slice(non_spatial);
  EMBER_CHECK_T(ValueError, size.size() == k, "[", layer, "] for ", input.dim(),
                "D input, output_size must have ", k, " or ", non_spatial + k, " elements (got ",
                output_size->size(), ")");
  EMBER_CHECK_T(ValueError, input.dim() >= static_cast<int64_t>(non_spatial + k), "[", layer,
                "] expected a ", k + 1, "D (unbatched) or ", k + 2, "D (batched) input, got ",
                input.sizes());
  std::vector<int64_t> min_sizes, max_sizes;
  for (size_t d = 0; d < k; ++d) {
    const int64_t in = input.size(static_cast<int64_t>(non_spatial + d));
    min_sizes.push_back(ops::conv_transpose_size(in, (*options.kernel_size())[d],
                                                 (*options.stride())[d], (*options.padding())[d],
                                                 (*options.dilation())[d]));
    max_sizes.push_back(min_sizes[d] + (*options.stride())[d] - 1);
  }
  std::vector<int64_t> ret;
  for (size_t d = 0; d < k; ++d) {
    EMBER_CHECK_T(ValueError, size[d] >= min_sizes[d] && size[d] <= max_sizes[d], "[", layer,
                  "] requested an output size of ", size, ", but valid sizes range from ",
                  convt_list(min_sizes), " to ", convt_list(max_sizes), " (for an input of ",
                  input.sizes().slice(non_spatial), ")");
    ret.push_back(size[d] - min_sizes[d]);
  }
  return ret;
}

template <size_t D, class Derived>
Tensor ConvTransposeNdImpl<D, Derived>::forward_impl(
    const Tensor& input, const std::optional<IntArrayRef>& output_size) {
  EMBER_CHECK_T(ValueError, std::holds_alternative<enumtype::kZeros>(options.padding_mode()), "[",
                this->name(), "] Only `zeros` padding mode is supported for ", this->name());
  const std::vector<int64_t> output_padding = _output_padding(input, output_size);
  Tensor (*op)(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
               int64_t, IntArrayRef) = D == 1   ? conv_transpose1d
                                       : D == 2 ? conv_transpose2d
                                                : conv_transpose3d;
  return op(input, weight, bias, options.stride(), options.padding(), output_padding,
            options.groups(), options.dilation());
}

template <size_t D, class Derived>
std::string ConvTransposeNdImpl<D, Derived>::extra_repr() const {
  std::string s = std::to_string(options.in_channels()) + ", " +
                  std::to_string(options.out_channels()) +
                  ", kernel_size=" + detail::python_tuple(options.kernel_size()) +
                  ", stride=" + detail::python_tuple(options.stride());
  if (!convt_all_equal(options.padding(), 0))
    s += ", padding=" + detail::python_tuple(options.padding());
  if (!convt_all_equal(options.dilation(), 1))
    s += ", dilation=" + detail::python_tuple(options.dilation());
  if (!convt_all_equal(options.output_padding(), 0))
    s += ", output_padding=" + detail::python_tuple(options.output_padding());
  if (options.groups() != 1) s += ", groups=" + std::to_string(options.groups());
  if (!bias.defined()) s += ", bias=False";
  return s;
}

template <size_t D, class Derived>
void ConvTransposeNdImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << this->name() << "(" << options.in_channels() << ", "
         << options.out_channels() << ", kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride();
  if (!convt_all_equal(options.padding(), 0)) stream << ", padding=" << options.padding();
  if (!convt_all_equal(options.dilation(), 1)) stream << ", dilation=" << options.dilation();
  if (!convt_all_equal(options.output_padding(), 0))
    stream << ", output_padding=" << options.output_padding();
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=false";
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode()))
    stream << ", padding_mode=" << enumtype::get_enum_name(options.padding_mode());
  stream << ")";
}

Tensor ConvTranspose1dImpl::forward(const Tensor& input,
                                    const std::optional<IntArrayRef>& output_size) {
  return forward_impl(input, output_size);
}
Tensor ConvTranspose2dImpl::forward(const Tensor& input,
                                    const std::optional<IntArrayRef>& output_size) {
  return forward_impl(input, output_size);
}
Tensor ConvTranspose3dImpl::forward(const Tensor& input,
                                    const std::optional<IntArrayRef>& output_size) {
  return forward_impl(input, output_size);
}

template class ConvTransposeNdImpl<1, ConvTranspose1dImpl>;
template class ConvTransposeNdImpl<2, ConvTranspose2dImpl>;
template class ConvTransposeNdImpl<3, ConvTranspose3dImpl>;

}  // namespace ember::nn
