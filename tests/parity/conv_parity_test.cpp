// Convolution and pooling on every visible GPU against the CPU, forward and backward, for the
// floating dtypes: conv2d (im2col + gemm, col2im for the input gradient), max_pool2d (values,
// and indices through the gradient), the gathered max pools and avg_pool2d. Skips visibly without
// a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using parity::expect_parity;
using parity::label;
using parity::leaf_on;

struct ConvCase {
  const char* name;
  std::vector<int64_t> input, weight, stride, padding, dilation;
  int64_t groups;
};
const std::vector<ConvCase> kConvCases = {
    {"3x3 same", {2, 3, 9, 8}, {4, 3, 3, 3}, {1}, {1}, {1}, 1},
    {"strided", {1, 2, 11, 10}, {3, 2, 3, 2}, {2, 3}, {1, 0}, {1}, 1},
    {"dilated", {2, 2, 12, 12}, {2, 2, 3, 3}, {1}, {2}, {2}, 1},
    {"grouped", {1, 4, 7, 7}, {6, 2, 3, 3}, {1}, {1}, {1}, 2},
    {"unbatched", {3, 6, 5}, {2, 3, 2, 2}, {1}, {0}, {1}, 1},
};

// Sums of products over C * kh * kw taps.
double tolerance(ScalarType t) { return t == kFloat16 ? 5e-3 : t == kBFloat16 ? 3e-2 : -1; }

TEST(ConvParity, Conv2dForwardAndBackward) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(31);
  for (Device device : parity::gpus())
    for (ScalarType t : parity::kFloatDTypes)
      for (const ConvCase& c : kConvCases) {
        Tensor x0 = randn(c.input).to(t), w0 = randn(c.weight).to(t),
               b0 = randn({c.weight[0]}).to(t);
        auto run = [&](Device d, int which) {
          Tensor x = leaf_on(x0, d), w = leaf_on(w0, d), b = leaf_on(b0, d);
          Tensor out = conv2d(x, w, b, c.stride, c.padding, c.dilation, c.groups);
          if (which == 0) return out.detach();
          out.backward(ones_like(out));
          return which == 1 ? x.grad() : which == 2 ? w.grad() : b.grad();
        };
        const char* parts[] = {"forward", "input grad", "weight grad", "bias grad"};
        for (int which = 0; which < 4; ++which)
          expect_parity(
              label(std::string("conv2d ") + c.name + " " + parts[which], t, device), device,
              [&](Device d) { return run(d, which); }, tolerance(t));
      }
}

struct PoolCase {
  const char* name;
  std::vector<int64_t> input, kernel, stride, padding, dilation;
  bool ceil_mode;
};
const std::vector<PoolCase> kPoolCases = {
    {"2x2", {2, 3, 8, 8}, {2}, {}, {0}, {1}, false},
    {"3x3 stride 2 pad 1", {1, 2, 9, 7}, {3}, {2}, {1}, {1}, false},
    {"ceil mode", {2, 1, 7, 9}, {3, 2}, {2}, {0}, {1}, true},
    {"dilated", {1, 2, 10, 10}, {3}, {1}, {1}, {2}, false},
    {"unbatched", {3, 6, 6}, {2}, {}, {0}, {1}, false},
};

TEST(ConvParity, MaxPool2dForwardAndBackward) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(32);
  for (Device device : parity::gpus())
    for (ScalarType t : parity::kFloatDTypes)
      for (const PoolCase& c : kPoolCases) {
        // Rounded values: ties in most windows, so the first maximum must win on both devices.
        Tensor x0 = round(mul(randn(c.input), 2)).to(t);
        for (bool backward : {false, true})
          expect_parity(
              label(std::string("max_pool2d ") + c.name + (backward ? " backward" : ""), t, device),
              device,
              [&](Device d) {
                Tensor x = leaf_on(x0, d);
                Tensor out = max_pool2d(x, c.kernel, c.stride, c.padding, c.dilation, c.ceil_mode);
                if (!backward) return out.detach();
                out.backward(ones_like(out));
                return x.grad();
              },
              /*tol=*/0);
      }
}

TEST(ConvParity, MaxPool2dNaN) {
  EMBER_SKIP_IF_NO_CUDA();
  Tensor x = tensor({{1.f, NAN, 3.f, 4.f}, {5.f, 6.f, NAN, 8.f}}).view({1, 1, 2, 4});
  // Two NaNs in one window: the index is the last one's on every device, as PyTorch's.
  Tensor two = tensor({NAN, 1.f, 5.f, NAN, 2.f, 7.f, 0.f, 0.f, 0.f}).view({1, 1, 3, 3});
  for (Device device : parity::gpus()) {
    Tensor out = max_pool2d(x.to(device), {2});
    EXPECT_TRUE(std::isnan(out.cpu().to_vector<float>()[0]));
    EXPECT_TRUE(std::isnan(out.cpu().to_vector<float>()[1]));
    Tensor indices = std::get<1>(max_pool2d_with_indices(two.to(device), 2, 1));
    EXPECT_EQ(indices.cpu().to_vector<int64_t>(), (std::vector<int64_t>{3, 5, 3, 5}));
  }
}

// max_pool3d and the adaptive max pools: windows gathered as tensors (pool_windows.cpp), the
// index the first maximum's or the last NaN's on every device.
TEST(ConvParity, GatheredMaxPools) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(34);
  Tensor x0 = round(mul(randn({2, 2, 4, 5, 6}), 2));  // ties in most windows
  x0.view({-1}).index_put_({tensor(std::vector<int64_t>{3, 4, 40, 41, 200})}, NAN);
  using Pool = std::function<std::tuple<Tensor, Tensor>(const Tensor&)>;
  const std::vector<std::pair<const char*, Pool>> pools = {
      {"max_pool3d", [](const Tensor& x) { return max_pool3d_with_indices(x, 2, 1, 1); }},
      {"adaptive_max_pool3d",
       [](const Tensor& x) {
         return adaptive_max_pool3d(x, {3, 2, 4});
       }},
      {"adaptive_max_pool2d",
       [](const Tensor& x) {
         return adaptive_max_pool2d(x.flatten(0, 1), {3, 4});
       }},
  };
  for (Device device : parity::gpus())
    for (const auto& [name, pool_fn] : pools)
      for (int which = 0; which < 3; ++which) {
        const Pool& pool = pool_fn;  // a lambda cannot capture a structured binding (clang 14)
        expect_parity(
            label(std::string(name) + (which == 0   ? " values"
                                       : which == 1 ? " indices"
                                                    : " backward"),
                  kFloat32, device),
            device,
            [&](Device d) {
              Tensor x = leaf_on(x0, d);
              auto [values, indices] = pool(x);
              if (which == 0) return values.detach();
              if (which == 1) return indices;
              values.backward(ones_like(values));
              return x.grad();
            },
            /*tol=*/0);
      }
}

TEST(ConvParity, AvgPool2dForwardAndBackward) {
  EMBER_SKIP_IF_NO_CUDA();
  manual_seed(33);
  for (Device device : parity::gpus())
    for (ScalarType t : parity::kFloatDTypes)
      for (const PoolCase& c : kPoolCases) {
        if (c.ceil_mode || c.dilation[0] != 1) continue;  // avg_pool2d has neither
        Tensor x0 = randn(c.input).to(t);
        for (bool backward : {false, true})
          expect_parity(
              label(std::string("avg_pool2d ") + c.name + (backward ? " backward" : ""), t, device),
              device,
              [&](Device d) {
                Tensor x = leaf_on(x0, d);
                Tensor out = avg_pool2d(x, c.kernel, c.stride, c.padding);
                if (!backward) return out.detach();
                out.backward(ones_like(out));
                return x.grad();
              },
              tolerance(t));
      }
}

}  // namespace
}  // namespace ember
