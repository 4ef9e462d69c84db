// nn::init: in-place initialisers with PyTorch's formulas (fan-in/fan-out, gains).
#pragma once

#include <string>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::nn::init {

enum class FanMode { FanIn, FanOut };
enum class Nonlinearity { Linear, Sigmoid, Tanh, ReLU, LeakyReLU };

EMBER_API double calculate_gain(Nonlinearity nonlinearity, double param = 0.01);
// (fan_in, fan_out) of a weight: [out, in, *kernel] -> in * k, out * k.
EMBER_API std::pair<int64_t, int64_t> calculate_fan_in_and_fan_out(const Tensor& weight);

EMBER_API Tensor& uniform_(Tensor& t, double low = 0.0, double high = 1.0);
EMBER_API Tensor& normal_(Tensor& t, double mean = 0.0, double std = 1.0);
EMBER_API Tensor& constant_(Tensor& t, double value);
EMBER_API Tensor& zeros_(Tensor& t);
EMBER_API Tensor& ones_(Tensor& t);
EMBER_API Tensor& xavier_uniform_(Tensor& t, double gain = 1.0);
EMBER_API Tensor& xavier_normal_(Tensor& t, double gain = 1.0);
// PyTorch's defaults (a = 0, fan_in, leaky_relu); Linear and Conv2d use a = sqrt(5).
EMBER_API Tensor& kaiming_uniform_(Tensor& t, double a = 0.0, FanMode mode = FanMode::FanIn,
                                   Nonlinearity nonlinearity = Nonlinearity::LeakyReLU);
EMBER_API Tensor& kaiming_normal_(Tensor& t, double a = 0.0, FanMode mode = FanMode::FanIn,
                                  Nonlinearity nonlinearity = Nonlinearity::LeakyReLU);

}  // namespace ember::nn::init
