// check_conv_args (conv_checks.h): one set of messages for conv2d and conv3d.
#include "ops/conv_checks.h"

#include "core/check.h"
#include "kernels/tensor_iter.h"

namespace ember::ops {

bool check_conv_args(const char* op, int64_t spatial, const Tensor& input, const Tensor& weight,
                     const Tensor& bias, int64_t groups) {
  EMBER_CHECK_T(ValueError, input.defined() && weight.defined(), "[", op,
                "] input and weight must be defined tensors");
  kernels::common_device(op, {&input, &weight, &bias}, {"input", "weight", "bias"});
  const char* dims = spatial == 3 ? "D, H, W" : "H, W";
  const char* kernel = spatial == 3 ? "kD, kH, kW" : "kH, kW";
  EMBER_CHECK_T(ValueError, input.dim() == spatial + 1 || input.dim() == spatial + 2, "[", op,
                "] Expected ", spatial + 1, "D (unbatched [C, ", dims, "]) or ", spatial + 2,
                "D (batched [N, C, ", dims, "]) input, but got input of size ", input.sizes(), " (",
                input.dim(), "-D); reshape it, or add a batch dim with unsqueeze(0)");
  EMBER_CHECK_T(ValueError, weight.dim() == spatial + 2, "[", op, "] expected a ", spatial + 2,
                "-D weight [out_channels, in_channels / groups, ", kernel,
                "], but got weight of size ", weight.sizes());
  EMBER_CHECK_T(TypeError, isFloatingType(input.scalar_type()), "[", op,
                "] expected a floating-point input, got ", input.scalar_type(),
                "; convert it with .to(kFloat32)");
  EMBER_CHECK_T(TypeError, input.scalar_type() == weight.scalar_type(), "[", op, "] Input type (",
                input.scalar_type(), ") and weight type (", weight.scalar_type(),
                ") should be the same; convert one of them with .to()");
  EMBER_CHECK_T(ValueError, groups > 0, "[", op, "] non-positive groups is not supported, got ",
                groups);
  const bool batched = input.dim() == spatial + 2;
  const int64_t channels = input.size(batched ? 1 : 0), out_channels = weight.size(0);
  EMBER_CHECK_T(ValueError, out_channels % groups == 0, "[", op, "] out_channels (weight of size ",
                weight.sizes(), ") must be divisible by groups=", groups);
  EMBER_CHECK_T(ValueError, weight.size(1) * groups == channels, "[", op, "] Given groups=", groups,
                ", weight of size ", weight.sizes(), ", expected input", input.sizes(), " to have ",
                weight.size(1) * groups, " channels, but got ", channels,
                " channels instead; the input's channel dim (dim ", batched ? 1 : 0,
                ") must equal weight.size(1) * groups");
  if (bias.defined()) {
    EMBER_CHECK_T(ValueError, bias.dim() == 1 && bias.size(0) == out_channels, "[", op,
                  "] Given weight of size ", weight.sizes(), ", expected bias to be 1-D with ",
                  out_channels, " elements, but got bias of size ", bias.sizes());
    EMBER_CHECK_T(TypeError, bias.scalar_type() == input.scalar_type(), "[", op, "] bias type (",
                  bias.scalar_type(), ") and input type (", input.scalar_type(),
                  ") should be the same");
  }
  return batched;
}

}  // namespace ember::ops
