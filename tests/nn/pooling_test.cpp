// The pools and conv1d against PyTorch 1.13 (pooling_reference.h, made by
// gen_pooling_reference.py from the same cases): outputs, indices and input gradients in double,
// gradchecks, the errors and the layers as LibTorch builds and prints them.
#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/pooling_reference.h"
#include "nn/reference_case.h"

namespace ember::test {
namespace {

namespace F = nn::functional;

std::vector<Tensor> both(const std::tuple<Tensor, Tensor>& values) {
  return {std::get<0>(values), std::get<1>(values)};
}

// A case of gen_pooling_reference.py: every input requires grad.
void check_case(const std::string& name, const std::vector<std::vector<int64_t>>& shapes,
                const CaseOutputs& forward) {
  std::vector<size_t> grads(shapes.size());
  std::iota(grads.begin(), grads.end(), size_t{0});
  check_reference_case(pooling_reference(), name, shapes, grads, forward);
}

// Fails unless f throws an ember::Error whose message contains `words`.
void pooling_expect_error(const std::function<void()>& f, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one saying: " << words;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

std::string pooling_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

TEST(Pooling, AvgPoolMatchesPyTorch) {
  check_case("avg_pool1d", {{2, 3, 7}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{avg_pool1d(x[0], 3, 2, 1, true, false)};
  });
  check_case("avg_pool1d_default", {{3, 8}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::avg_pool1d(x[0], F::AvgPool1dFuncOptions(2))};
  });
  check_case("avg_pool2d_ceil", {{2, 2, 5, 6}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{avg_pool2d(x[0], {3, 2}, {2, 1}, {1, 1}, true)};
  });
  check_case("avg_pool2d_ceil_exclude_pad", {{2, 2, 5, 6}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::avg_pool2d(
        x[0],
        F::AvgPool2dFuncOptions(3).stride(2).padding(1).ceil_mode(true).count_include_pad(false))};
  });
  check_case("avg_pool2d_divisor", {{1, 2, 5, 5}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{avg_pool2d(x[0], 3, 2, 1, false, true, 5)};
  });
  check_case("avg_pool2d_unbatched", {{3, 5, 5}},
             [](const std::vector<Tensor>& x) { return std::vector<Tensor>{avg_pool2d(x[0], 2)}; });
  check_case("avg_pool3d_ceil_exclude_pad", {{2, 2, 4, 5, 6}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{avg_pool3d(x[0], {2, 3, 2}, {2, 2, 1}, {1, 1, 0}, true, false)};
  });
  check_case("avg_pool3d_divisor", {{1, 2, 4, 4, 5}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{
        F::avg_pool3d(x[0], F::AvgPool3dFuncOptions(2).stride(1).padding(1).divisor_override(3))};
  });
  check_case("avg_pool3d_unbatched", {{2, 3, 4, 5}},
             [](const std::vector<Tensor>& x) { return std::vector<Tensor>{avg_pool3d(x[0], 2)}; });
}

TEST(Pooling, MaxPoolWithIndicesMatchesPyTorch) {
  check_case("max_pool1d", {{2, 3, 9}}, [](const std::vector<Tensor>& x) {
    return both(max_pool1d_with_indices(x[0], 3, 2, 1, 2, true));
  });
  check_case("max_pool2d", {{2, 2, 6, 7}}, [](const std::vector<Tensor>& x) {
    return both(F::max_pool2d_with_indices(
        x[0],
        F::MaxPool2dFuncOptions({3, 2}).stride(2).padding(1).dilation({1, 2}).ceil_mode(true)));
  });
  check_case("max_pool3d", {{2, 2, 5, 6, 7}}, [](const std::vector<Tensor>& x) {
    return both(max_pool3d_with_indices(x[0], {2, 3, 3}, 2, {1, 1, 0}, {1, 1, 2}, true));
  });
  check_case("max_pool3d_unbatched", {{2, 4, 4, 4}}, [](const std::vector<Tensor>& x) {
    return both(F::max_pool3d_with_indices(x[0], F::MaxPool3dFuncOptions(2)));
  });
}

TEST(Pooling, AdaptivePoolMatchesPyTorch) {
  check_case("adaptive_avg_pool1d", {{2, 3, 7}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{adaptive_avg_pool1d(x[0], 3)};
  });
  check_case("adaptive_avg_pool1d_grow", {{2, 5}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::adaptive_avg_pool1d(x[0], F::AdaptiveAvgPool1dFuncOptions(7))};
  });
  check_case("adaptive_avg_pool2d", {{2, 2, 7, 5}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{adaptive_avg_pool2d(x[0], {3, 4})};
  });
  check_case("adaptive_avg_pool2d_none", {{2, 7, 5}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{
        F::adaptive_avg_pool2d(x[0], F::AdaptiveAvgPool2dFuncOptions({3, std::nullopt}))};
  });
  check_case("adaptive_avg_pool3d", {{2, 2, 5, 7, 6}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{adaptive_avg_pool3d(x[0], {2, 3, 4})};
  });
  check_case("adaptive_max_pool1d", {{2, 3, 7}},
             [](const std::vector<Tensor>& x) { return both(adaptive_max_pool1d(x[0], 3)); });
  check_case("adaptive_max_pool2d", {{2, 2, 7, 5}}, [](const std::vector<Tensor>& x) {
    return both(F::adaptive_max_pool2d_with_indices(x[0], F::AdaptiveMaxPool2dFuncOptions({3, 4})));
  });
  check_case("adaptive_max_pool2d_none", {{2, 7, 5}}, [](const std::vector<Tensor>& x) {
    return both(F::adaptive_max_pool2d_with_indices(
        x[0], F::AdaptiveMaxPool2dFuncOptions({std::nullopt, 2})));
  });
  check_case("adaptive_max_pool3d", {{2, 2, 5, 7, 6}}, [](const std::vector<Tensor>& x) {
    return both(adaptive_max_pool3d(x[0], {2, 3, 4}));
  });
}

// max_pool*d_with_indices of the generator's fixed input (filled(shape, 5)): the indices that
// the unpooling cases scatter with.
Tensor pooled_indices(const std::vector<int64_t>& shape) {
  Tensor x = filled(shape, 5);
  switch (shape.size()) {
    case 3: return std::get<1>(max_pool1d_with_indices(x, 2));
    case 4: return std::get<1>(max_pool2d_with_indices(x, 2));
    default: return std::get<1>(max_pool3d_with_indices(x, 2));
  }
}

TEST(Pooling, LpPoolUnpoolAndConv1dMatchPyTorch) {
  check_case("lp_pool1d", {{2, 3, 8}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{
        F::lp_pool1d(x[0], F::LPPool1dFuncOptions(4.0, 3).stride(2).ceil_mode(true))};
  });
  check_case("lp_pool2d", {{2, 2, 5, 6}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::lp_pool2d(x[0], F::LPPool2dFuncOptions(2.0, {2, 3}).stride(2))};
  });
  check_case("max_unpool1d", {{2, 3, 4}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{
        F::max_unpool1d(x[0], pooled_indices({2, 3, 9}),
                        F::MaxUnpool1dFuncOptions(2).output_size(std::vector<int64_t>{9}))};
  });
  check_case("max_unpool2d", {{2, 2, 3, 3}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{
        F::max_unpool2d(x[0], pooled_indices({2, 2, 6, 6}), F::MaxUnpool2dFuncOptions(2))};
  });
  check_case("max_unpool3d", {{1, 2, 2, 2, 3}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::max_unpool3d(
        x[0], pooled_indices({1, 2, 5, 4, 7}),
        F::MaxUnpool3dFuncOptions(2).output_size(std::vector<int64_t>{1, 2, 5, 4, 7}))};
  });
  check_case("conv1d", {{2, 4, 9}, {6, 2, 3}, {6}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{conv1d(x[0], x[1], x[2], 2, 1, 2, 2)};
  });
  check_case("conv1d_unbatched", {{3, 6}, {2, 3, 2}}, [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{F::conv1d(x[0], x[1])};
  });
}

TEST(Pooling, Gradchecks) {
  manual_seed(3);
  Tensor x1 = randn({2, 2, 7}, kFloat64), x2 = randn({1, 2, 5, 4}, kFloat64);
  Tensor x3 = randn({1, 2, 3, 4, 5}, kFloat64);
  using V = std::vector<Tensor>;
  gradcheck("avg_pool1d", [](const V& v) { return avg_pool1d(v[0], 3, 2, 1, true, false); }, {x1});
  gradcheck("avg_pool2d",
            [](const V& v) {
              return avg_pool2d(v[0], {3, 2}, 2, 1, true, false);
            },
            {x2});
  gradcheck("avg_pool2d divisor_override",
            [](const V& v) { return avg_pool2d(v[0], 2, 1, 1, false, true, 3); }, {x2});
  gradcheck("avg_pool3d", [](const V& v) { return avg_pool3d(v[0], 2, 2, 1, true, false); }, {x3});
  gradcheck("max_pool1d", [](const V& v) { return max_pool1d(v[0], 3, 2, 1, 2, true); }, {x1});
  gradcheck("max_pool3d",
            [](const V& v) {
              return max_pool3d(v[0], {2, 2, 3}, 1, 1, 1, true);
            },
            {x3});
  gradcheck("lp_pool2d",
            [](const V& v) { return F::lp_pool2d(v[0], F::LPPool2dFuncOptions(2.0, 2)); }, {x2});
  gradcheck("max_unpool2d",
            [](const V& v) {
              return max_unpool2d(v[0], tensor({{{{1, 7}, {8, 14}}}}).to(kInt64), {4, 4});
            },
            {randn({1, 1, 2, 2}, kFloat64)});
  gradcheck("conv1d", [](const V& v) { return conv1d(v[0], v[1], v[2], 2, 1, 2); },
            {x1, randn({3, 2, 2}, kFloat64), randn({3}, kFloat64)});
  gradcheck("adaptive_avg_pool2d",
            [](const V& v) {
              return adaptive_avg_pool2d(v[0], {3, 3});
            },
            {x2});
  gradcheck("adaptive_max_pool3d",
            [](const V& v) {
              return std::get<0>(adaptive_max_pool3d(v[0], {2, 2, 3}));
            },
            {x3});
}

TEST(Pooling, ErrorsNameTheOpAndShapes) {
  pooling_expect_error(
      [] {
        avg_pool3d(ones({2, 3, 4}), 2);
      },
      "[avg_pool3d] Expected 4D (unbatched) or 5D (batched) input, but got input of "
      "size [2, 3, 4]");
  pooling_expect_error(
      [] {
        max_pool3d(ones({1, 1, 2, 2, 2}), 3);
      },
      "[max_pool3d] Given input size [1, 1, 2, 2, 2], calculated output size [0, 0, 0] "
      "is too small");
  pooling_expect_error(
      [] {
        max_pool1d(ones({1, 4}), {2, 2});
      },
      "[max_pool1d] kernel_size must be one int, got 2 values [2, 2]");
  pooling_expect_error(
      [] {
        avg_pool3d(ones({1, 1, 4, 4, 4}), 2, 2, 2);
      },
      "[avg_pool3d] pad should be at most half of effective kernel size, but got pad=2");
  pooling_expect_error(
      [] {
        avg_pool2d(ones({1, 1, 4, 4}), 2, 2, 0, false, true, 0);
      },
      "[avg_pool2d] divisor must be not zero");
  pooling_expect_error(
      [] {
        max_pool3d(ones({1, 1, 4, 4, 4}, kInt64), 2);
      },
      "[max_pool3d] expected a floating-point input");
  pooling_expect_error(
      [] {
        adaptive_avg_pool2d(ones({1, 0, 4}), {2, 2});
      },
      "[adaptive_avg_pool2d] Expected input to have non-zero size for non-batch "
      "dimensions, but input has sizes [1, 0, 4] with dimension 1 being empty");
  pooling_expect_error(
      [] {
        adaptive_max_pool2d(ones({1, 4, 4}), {2});
      },
      "[adaptive_max_pool2d] output_size must be 2 ints, got 1 values [2]");
}

TEST(Pooling, LayersAsLibTorch) {
  nn::AvgPool2d avg(nn::AvgPool2dOptions(2).ceil_mode(true));
  EXPECT_EQ(pooling_printed(*avg),
            "torch::nn::AvgPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0])");
  EXPECT_EQ(avg->extra_repr(), "kernel_size=2, stride=2, padding=0");
  Tensor x = arange(25, TensorOptions(kFloat32)).view({1, 1, 5, 5});
  EXPECT_TRUE(
      allclose(avg(x), tensor({{{{3.f, 5.f, 6.5f}, {13.f, 15.f, 16.5f}, {20.5f, 22.5f, 24.f}}}})));
  nn::MaxPool3d max3(nn::MaxPool3dOptions({1, 2, 2}));
  EXPECT_EQ(pooling_printed(*max3),
            "torch::nn::MaxPool3d(kernel_size=[1, 2, 2], stride=[1, 2, 2], padding=[0, 0, 0], "
            "dilation=[1, 1, 1], ceil_mode=false)");
  auto [values, indices] = max3->forward_with_indices(x.view({1, 1, 1, 5, 5}));
  EXPECT_TRUE(equal(values.flatten(), tensor({6.f, 8.f, 16.f, 18.f})));
  EXPECT_TRUE(equal(indices.flatten(), tensor({6, 8, 16, 18}).to(kInt64)));
  nn::MaxPool1d max1(3);
  EXPECT_EQ(
      pooling_printed(*max1),
      "torch::nn::MaxPool1d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=false)");
  EXPECT_TRUE(equal(max1(arange(7, TensorOptions(kFloat32)).view({1, 7})), tensor({{2.f, 5.f}})));
  nn::AdaptiveAvgPool2d adaptive(nn::AdaptiveAvgPool2dOptions({3, std::nullopt}));
  EXPECT_EQ(pooling_printed(*adaptive), "torch::nn::AdaptiveAvgPool2d(output_size=[3, None])");
  EXPECT_EQ(adaptive->extra_repr(), "output_size=(3, None)");
  EXPECT_EQ(adaptive(x).sizes(), IntArrayRef({1, 1, 3, 5}));
  nn::AdaptiveMaxPool1d adaptive_max(2);
  EXPECT_EQ(pooling_printed(*adaptive_max), "torch::nn::AdaptiveMaxPool1d(output_size=2)");
  EXPECT_EQ(adaptive_max->extra_repr(), "output_size=2");
  auto [top, where] = adaptive_max->forward_with_indices(tensor({{3.f, 1.f, 2.f, 5.f, 4.f}}));
  EXPECT_TRUE(equal(top, tensor({{3.f, 5.f}})));
  EXPECT_TRUE(equal(where, tensor({{0, 3}}).to(kInt64)));
  nn::LPPool2d lp(nn::LPPool2dOptions(2, {2, 3}));
  EXPECT_EQ(pooling_printed(*lp),
            "torch::nn::LPPool2d(norm_type=2, kernel_size=[2, 3], stride=[2, 3], ceil_mode=false)");
  nn::MaxUnpool2d unpool(2);
  EXPECT_EQ(pooling_printed(*unpool),
            "torch::nn::MaxUnpool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0])");
  auto [pooled, at] = nn::MaxPool2d(2)->forward_with_indices(x);
  Tensor zero_row = zeros({5});
  EXPECT_TRUE(equal(unpool(pooled, at, std::vector<int64_t>{5, 5}),
                    stack({zero_row, tensor({0.f, 6.f, 0.f, 8.f, 0.f}), zero_row,
                           tensor({0.f, 16.f, 0.f, 18.f, 0.f}), zero_row})
                        .view({1, 1, 5, 5})));
  nn::Conv1d conv(nn::Conv1dOptions(4, 6, 3).stride(2).groups(2).bias(false));
  EXPECT_EQ(pooling_printed(*conv),
            "torch::nn::Conv1d(4, 6, kernel_size=3, stride=2, groups=2, bias=false)");
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({6, 2, 3}));
  EXPECT_EQ(conv(ones({2, 4, 9})).sizes(), IntArrayRef({2, 6, 4}));
  pooling_expect_error([] { nn::AvgPool3d(nn::AvgPool3dOptions(2).padding(-1)); },
                       "[AvgPool3d] padding must be non-negative");
}

}  // namespace
}  // namespace ember::test
