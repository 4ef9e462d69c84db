// nn::init: in-place initialisers with PyTorch's formulas (fan-in/fan-out, gains), LibTorch's
// signatures: each takes the tensor by value (a handle to the same storage), fills it without
// recording a gradient and returns it, so init::normal_(linear->weight, 0, 0.01) and
// init::kaiming_normal_(w, 0, torch::kFanOut, torch::kReLU) read as in LibTorch.
#pragma once

#include <cstdint>
#include <tuple>
#include <variant>

#include "ember/enum.h"
#include "ember/macros.h"
#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember::nn::init {

using NonlinearityType =
    std::variant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D, enumtype::kConv3D,
                 enumtype::kConvTranspose1D, enumtype::kConvTranspose2D, enumtype::kConvTranspose3D,
                 enumtype::kSigmoid, enumtype::kTanh, enumtype::kReLU, enumtype::kLeakyReLU>;
using FanModeType = std::variant<enumtype::kFanIn, enumtype::kFanOut>;

// The recommended gain of a nonlinearity (param: LeakyReLU's negative slope).
EMBER_API double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);
// (fan_in, fan_out) of a weight: [out, in, *kernel] -> in * k, out * k.
EMBER_API std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor);

EMBER_API Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
EMBER_API Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
EMBER_API Tensor constant_(Tensor tensor, Scalar value);
EMBER_API Tensor zeros_(Tensor tensor);
EMBER_API Tensor ones_(Tensor tensor);
// The identity matrix (a 2-D tensor).
EMBER_API Tensor eye_(Tensor matrix);
// The identity of a convolution: 1 at the centre of kernel [d, d] (a 3-, 4- or 5-D weight).
EMBER_API Tensor dirac_(Tensor tensor);
EMBER_API Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
EMBER_API Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
// PyTorch's defaults (a = 0, fan_in, leaky_relu); Linear and Conv2d use a = sqrt(5).
EMBER_API Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                                  NonlinearityType nonlinearity = kLeakyReLU);
EMBER_API Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                                 NonlinearityType nonlinearity = kLeakyReLU);
// A (semi-)orthogonal matrix (the trailing dims flattened) times gain: the Q of a normal
// matrix's QR decomposition with R's diagonal made positive, as PyTorch's.
EMBER_API Tensor orthogonal_(Tensor tensor, double gain = 1.0);
// A 2-D tensor drawn from N(0, std^2) with a fraction `sparsity` of each column zeroed.
EMBER_API Tensor sparse_(Tensor tensor, double sparsity, double std = 0.01);
// N(mean, std^2) restricted to [a, b] (Python's torch.nn.init.trunc_normal_; LibTorch has none).
EMBER_API Tensor trunc_normal_(Tensor tensor, double mean = 0, double std = 1, double a = -2,
                               double b = 2);

}  // namespace ember::nn::init
