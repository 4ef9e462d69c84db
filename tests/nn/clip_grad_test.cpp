// Gradient clipping against hand-computed values: the total norm over several gradients (2, 1
// and inf norms), scaling only above max_norm, skipped parameters, the non-finite check,
// clip_grad_value_, no autograd recording, and the same on every visible GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

using nn::utils::clip_grad_norm_tensor_;
using nn::utils::clip_grad_value_;

// A parameter on `device` whose gradient is `grad` (a backward of sum(p * grad)).
Tensor with_grad(NestedList grad, Device device = Device::cpu(), ScalarType dtype = kFloat32) {
  Tensor g = tensor(std::move(grad), kFloat64).to(device, dtype);
  Tensor p = zeros_like(g).requires_grad_(true);
  (p * g).sum().backward();
  return p;
}

// Grads [3, 4] and [12]: 2-norm sqrt(9 + 16 + 144) = 13; max_norm 6.5 halves both.
void expect_two_norm_halves(Device device) {
  SCOPED_TRACE(device.str());
  Tensor a = with_grad({3, 4}, device), b = with_grad({12}, device);
  Tensor total = clip_grad_norm_tensor_({a, b}, 6.5);
  EXPECT_EQ(total.dim(), 0);
  EXPECT_EQ(total.device(), device);
  EXPECT_FALSE(total.requires_grad());
  EXPECT_NEAR(total.item<double>(), 13.0, 1e-5);
  const double coef = 6.5 / (13.0 + 1e-6);
  expect_close(a.grad(), {2}, {3 * coef, 4 * coef}, 1e-6, 0);
  expect_close(b.grad(), {1}, {12 * coef}, 1e-6, 0);
}

TEST(NnClipGrad, NormAboveMaxNormScalesEveryGradient) { expect_two_norm_halves(Device::cpu()); }

TEST(NnClipGrad, NormAboveMaxNormScalesEveryGradientOnEveryGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : all_devices())
    if (device.is_cuda()) expect_two_norm_halves(device);
}

// Gradients on the CPU and a GPU: the norms meet on the first gradient's device.
TEST(NnClipGrad, GradientsOnTwoDevices) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor a = with_grad({3, 4}, Device::cuda(0)), b = with_grad({12}, Device::cpu());
  Tensor total = clip_grad_norm_tensor_({a, b}, 6.5);
  EXPECT_EQ(total.device(), Device::cuda(0));
  EXPECT_NEAR(total.item<double>(), 13.0, 1e-5);
  expect_close(a.grad(), {2}, {1.5, 2.0}, 1e-6, 0);
  expect_close(b.grad(), {1}, {6.0}, 1e-6, 0);
}

// Gradients that themselves require grad: clipping them must neither record a graph nor trip the
// in-place check on leaves that require grad (PyTorch clips g.detach() under no_grad).
TEST(NnClipGrad, RecordsNoAutograd) {
  Tensor p = zeros({2}).requires_grad_(true);
  p.mutable_grad() = tensor({3.0, 4.0}).requires_grad_(true);
  Tensor total = clip_grad_norm_tensor_({p}, 2.5);
  EXPECT_EQ(total.grad_fn(), nullptr);
  EXPECT_FALSE(total.requires_grad());
  EXPECT_EQ(p.grad().grad_fn(), nullptr);
  expect_close(p.grad(), {2}, {1.5, 2.0}, 1e-6, 0);
  clip_grad_value_(p, 1.0);
  EXPECT_EQ(p.grad().grad_fn(), nullptr);
  expect_close(p.grad(), {2}, {1.0, 1.0}, 0, 0);
}

TEST(NnClipGrad, NormWithinMaxNormLeavesGradientsAlone) {
  const Device cpu = Device::cpu();
  Tensor a = with_grad({3, 4}, cpu, kFloat64), b = with_grad({12}, cpu, kFloat64);
  Tensor total = clip_grad_norm_tensor_({a, b}, 13.5);
  EXPECT_DOUBLE_EQ(total.item<double>(), 13.0);
  expect_values<double>(a.grad(), {2}, {3, 4});  // multiplied by exactly 1
  expect_values<double>(b.grad(), {1}, {12});
}

TEST(NnClipGrad, InfAndOneNorms) {
  const double inf = std::numeric_limits<double>::infinity();
  const Device cpu = Device::cpu();
  Tensor a = with_grad({3, -4}, cpu, kFloat64), b = with_grad({-2}, cpu, kFloat64);
  EXPECT_DOUBLE_EQ(clip_grad_norm_tensor_({a, b}, 2.0, inf).item<double>(), 4.0);  // max |g|
  const double half = 2.0 / (4.0 + 1e-6);
  expect_close(a.grad(), {2}, {3 * half, -4 * half}, 1e-12, 0);
  expect_close(b.grad(), {1}, {-2 * half}, 1e-12, 0);

  Tensor c = with_grad({3, -4}, cpu, kFloat64), d = with_grad({-2}, cpu, kFloat64);
  EXPECT_DOUBLE_EQ(clip_grad_norm_tensor_({c, d}, 4.5, 1.0).item<double>(), 9.0);  // sum |g|
  expect_close(c.grad(), {2}, {1.5, -2.0}, 1e-6, 0);
  expect_close(d.grad(), {1}, {-1.0}, 1e-6, 0);
}

TEST(NnClipGrad, ParametersWithoutGradientsAreSkipped) {
  Tensor none = zeros({3}).requires_grad_(true);
  Tensor total = clip_grad_norm_tensor_({none}, 1.0);  // no gradient at all: a CPU 0
  EXPECT_EQ(total.dim(), 0);
  EXPECT_EQ(total.item<double>(), 0.0);
  EXPECT_FALSE(none.grad().defined());

  Tensor a = with_grad({6, 8});
  std::vector<Tensor> params{none, a};  // as module->parameters() would give them
  EXPECT_NEAR(clip_grad_norm_tensor_(params, 5.0).item<double>(), 10.0, 1e-5);
  expect_close(a.grad(), {2}, {3, 4}, 1e-6, 0);
  EXPECT_FALSE(none.grad().defined());
  clip_grad_value_(params, 1.0);
  EXPECT_FALSE(none.grad().defined());
}

TEST(NnClipGrad, SingleTensorOverload) {
  Tensor p = with_grad({-5, 12});
  EXPECT_NEAR(clip_grad_norm_tensor_({p}, 1.3).item<double>(), 13.0, 1e-5);
  expect_close(p.grad(), {2}, {-0.5, 1.2}, 1e-6, 0);
}

TEST(NnClipGrad, NonFiniteNormThrowsOnlyWhenAsked) {
  const double inf = std::numeric_limits<double>::infinity();
  Tensor a = with_grad({1, NAN}), b = with_grad({3});
  std::string msg = error_of([&] { clip_grad_norm_tensor_({a, b}, 1.0, 2.0, true); });
  EXPECT_NE(msg.find("[clip_grad_norm_] The total norm of order 2.0 for gradients from "
                     "`parameters` is non-finite, so it cannot be clipped"),
            std::string::npos)
      << msg;
  EXPECT_EQ(b.grad().item<double>(), 3.0);  // nothing was scaled

  Tensor c = with_grad({inf, 2});
  msg = error_of([&] { clip_grad_norm_tensor_({c}, 1.0, inf, true); });
  EXPECT_NE(msg.find("of order inf"), std::string::npos) << msg;

  // Without the check the gradients are scaled by the non-finite norm, as in PyTorch.
  EXPECT_TRUE(std::isnan(clip_grad_norm_tensor_({a, b}, 1.0).item<double>()));
  EXPECT_TRUE(std::isnan(b.grad().item<double>()));
}

TEST(NnClipGrad, ClipGradValueClampsInPlace) {
  Tensor a = with_grad({-3, 0.5, 2}), b = with_grad({-0.25});
  clip_grad_value_({a, b}, 1.0);
  expect_close(a.grad(), {3}, {-1, 0.5, 1}, 0, 0);
  expect_close(b.grad(), {1}, {-0.25}, 0, 0);
  clip_grad_value_(a, 0.5);
  expect_close(a.grad(), {3}, {-0.5, 0.5, 0.5}, 0, 0);
}

TEST(NnClipGrad, ClipGradValueOnEveryGpu) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : all_devices()) {
    if (!device.is_cuda()) continue;
    Tensor a = with_grad({-3, 0.5, 2}, device);
    clip_grad_value_(a, 1.0);
    EXPECT_EQ(a.grad().device(), device);
    expect_close(a.grad(), {3}, {-1, 0.5, 1}, 0, 0);
  }
}

}  // namespace
}  // namespace ember::test
