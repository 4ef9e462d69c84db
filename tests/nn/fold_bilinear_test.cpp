// Bilinear, Fold/Unfold and Tensor::unflatten against PyTorch 1.13 (fold_bilinear_reference.h,
// made by gen_fold_bilinear_reference.py from the same cases): outputs and input gradients in
// double, gradchecks, the errors and the layers as LibTorch builds and prints them.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "ember/nn.h"
#include "nn/fold_bilinear_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using FoldBilinearInputs = std::vector<Tensor>;

// A case of gen_fold_bilinear_reference.py: every input requires grad.
void check_fold_bilinear_case(const std::string& name,
                              const std::vector<std::vector<int64_t>>& shapes,
                              const CaseOutputs& forward) {
  std::vector<size_t> grads(shapes.size());
  std::iota(grads.begin(), grads.end(), size_t{0});
  check_reference_case(fold_bilinear_reference(), name, shapes, grads, forward);
}

std::string fold_bilinear_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

// Fails unless `message` contains `words`.
void expect_fold_bilinear_words(const std::string& message, const std::string& words) {
  EXPECT_NE(message.find(words), std::string::npos) << "message: " << message;
}

TEST(FoldBilinear, BilinearMatchesPyTorch) {
  check_fold_bilinear_case("bilinear", {{4, 3}, {4, 5}, {2, 3, 5}, {2}},
                           [](const FoldBilinearInputs& x) {
                             return FoldBilinearInputs{bilinear(x[0], x[1], x[2], x[3])};
                           });
  check_fold_bilinear_case("bilinear_no_bias", {{3, 2}, {3, 4}, {3, 2, 4}},
                           [](const FoldBilinearInputs& x) {
                             return FoldBilinearInputs{F::bilinear(x[0], x[1], x[2])};
                           });
  check_fold_bilinear_case("bilinear_leading_dims", {{2, 3, 2}, {2, 3, 3}, {4, 2, 3}, {4}},
                           [](const FoldBilinearInputs& x) {
                             return FoldBilinearInputs{F::bilinear(x[0], x[1], x[2], x[3])};
                           });
  check_fold_bilinear_case("bilinear_unbatched", {{3}, {2}, {2, 3, 2}, {2}},
                           [](const FoldBilinearInputs& x) {
                             return FoldBilinearInputs{bilinear(x[0], x[1], x[2], x[3])};
                           });
}

TEST(FoldBilinear, FoldAndUnfoldMatchPyTorch) {
  check_fold_bilinear_case("unfold", {{2, 3, 4, 5}}, [](const FoldBilinearInputs& x) {
    return FoldBilinearInputs{F::unfold(x[0], F::UnfoldFuncOptions(2))};
  });
  check_fold_bilinear_case(
      "unfold_stride_padding_dilation", {{2, 2, 6, 7}}, [](const FoldBilinearInputs& x) {
        return FoldBilinearInputs{F::unfold(
            x[0], F::UnfoldFuncOptions({2, 3}).dilation({2, 1}).padding({1, 2}).stride({2, 3}))};
      });
  check_fold_bilinear_case("fold", {{2, 12, 12}}, [](const FoldBilinearInputs& x) {
    return FoldBilinearInputs{F::fold(x[0], F::FoldFuncOptions({4, 5}, 2))};
  });
  check_fold_bilinear_case(
      "fold_stride_padding_dilation", {{2, 12, 6}}, [](const FoldBilinearInputs& x) {
        return FoldBilinearInputs{F::fold(
            x[0],
            F::FoldFuncOptions({5, 6}, {2, 3}).dilation({1, 2}).padding({1, 0}).stride({2, 1}))};
      });
  check_fold_bilinear_case("fold_unbatched", {{8, 9}}, [](const FoldBilinearInputs& x) {
    return FoldBilinearInputs{nn::Fold(nn::FoldOptions(4, 2).stride(1))(x[0])};
  });
}

TEST(FoldBilinear, UnflattenMatchesPyTorch) {
  check_fold_bilinear_case("unflatten", {{2, 12, 3}}, [](const FoldBilinearInputs& x) {
    return FoldBilinearInputs{x[0].unflatten(1, {2, -1, 3})};
  });
  check_fold_bilinear_case("unflatten_negative_dim", {{3, 8}}, [](const FoldBilinearInputs& x) {
    return FoldBilinearInputs{x[0].unflatten(-1, {-1, 4})};
  });
  // nn::Unflatten is the method.
  Tensor t = arange(24, TensorOptions(kFloat64)).reshape({2, 12});
  EXPECT_EQ(nn::Unflatten(1, std::vector<int64_t>{3, -1})(t).sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_TRUE(equal(t.unflatten(1, {3, 4}), t.view({2, 3, 4})));
}

TEST(FoldBilinear, UnfoldThenFoldCountsOverlaps) {
  // fold(unfold(x)) multiplies each pixel by the number of blocks that cover it.
  Tensor x = ones({1, 2, 4, 4}, kFloat64);
  Tensor cols = F::unfold(x, F::UnfoldFuncOptions(2));
  EXPECT_EQ(cols.sizes(), IntArrayRef({1, 8, 9}));
  Tensor back = F::fold(cols, F::FoldFuncOptions(4, 2));
  EXPECT_EQ(back.sizes(), IntArrayRef({1, 2, 4, 4}));
  expect_close(back[0][0], {4, 4}, {1, 2, 2, 1, 2, 4, 4, 2, 2, 4, 4, 2, 1, 2, 2, 1});
}

TEST(FoldBilinear, Gradchecks) {
  manual_seed(11);
  using V = std::vector<Tensor>;
  gradcheck("bilinear", [](const V& v) { return bilinear(v[0], v[1], v[2], v[3]); },
            {randn({3, 2}, kFloat64), randn({3, 4}, kFloat64), randn({2, 2, 4}, kFloat64),
             randn({2}, kFloat64)});
  gradcheck("unfold",
            [](const V& v) {
              return F::unfold(v[0], F::UnfoldFuncOptions(2).padding(1).stride({1, 2}));
            },
            {randn({1, 2, 3, 4}, kFloat64)});
  gradcheck("fold",
            [](const V& v) {
              return F::fold(v[0], F::FoldFuncOptions({3, 4}, 2).dilation(1));
            },
            {randn({1, 8, 6}, kFloat64)});
  gradcheck("unflatten",
            [](const V& v) {
              return v[0].unflatten(0, {-1, 2});
            },
            {randn({4, 3}, kFloat64)});
}

TEST(FoldBilinear, BilinearLayer) {
  manual_seed(0);
  nn::Bilinear layer(3, 5, 4);
  EXPECT_EQ(layer->weight.sizes(), IntArrayRef({4, 3, 5}));
  EXPECT_EQ(layer->bias.sizes(), IntArrayRef({4}));
  const double bound = 1.0 / std::sqrt(3.0);
  EXPECT_LE(layer->weight.abs().max().item<double>(), bound);
  EXPECT_LE(layer->bias.abs().max().item<double>(), bound);
  EXPECT_EQ(layer->named_parameters().size(), 2u);
  Tensor a = randn({6, 3}), b = randn({6, 5});
  Tensor y = layer(a, b);
  EXPECT_EQ(y.sizes(), IntArrayRef({6, 4}));
  EXPECT_TRUE(allclose(y, bilinear(a, b, layer->weight, layer->bias)));
  EXPECT_EQ(fold_bilinear_printed(*layer),
            "torch::nn::Bilinear(in1_features=3, in2_features=5, out_features=4, bias=true)");

  nn::Bilinear plain(nn::BilinearOptions(2, 2, 1).bias(false));
  EXPECT_FALSE(plain->bias.defined());
  EXPECT_EQ(plain->named_parameters().size(), 1u);
  EXPECT_EQ(fold_bilinear_printed(*plain),
            "torch::nn::Bilinear(in1_features=2, in2_features=2, out_features=1, bias=false)");
}

TEST(FoldBilinear, FoldLayers) {
  nn::Fold fold(nn::FoldOptions({4, 5}, 2));
  EXPECT_EQ(fold_bilinear_printed(*fold),
            "torch::nn::Fold(output_size=[4, 5], kernel_size=[2, 2], dilation=[1, 1], "
            "padding=[0, 0], stride=[1, 1])");
  EXPECT_EQ(fold(zeros({2, 12, 12})).sizes(), IntArrayRef({2, 3, 4, 5}));
  nn::Unfold unfold(nn::UnfoldOptions({2, 3}).dilation(2).padding({1, 0}).stride(3));
  EXPECT_EQ(fold_bilinear_printed(*unfold),
            "torch::nn::Unfold(kernel_size=[2, 3], dilation=[2, 2], padding=[1, 0], "
            "stride=[3, 3])");
  EXPECT_EQ(nn::Unfold(2)(zeros({1, 3, 4, 5})).sizes(), IntArrayRef({1, 12, 12}));
}

TEST(FoldBilinear, Errors) {
  Tensor t = zeros({2, 12});
  expect_fold_bilinear_words(error_of([&] {
                               t.unflatten(1, {-1, -1});
                             }),
                             "only one dimension can be inferred");
  expect_fold_bilinear_words(
      error_of([&] {
        t.unflatten(-1, {5, -1});
      }),
      "don't multiply up to the size of dim 1 (12)");  // wrapped, as PyTorch's
  expect_fold_bilinear_words(error_of([&] { t.unflatten(1, {}); }),
                             "unflatten: sizes must be non-empty");
  expect_fold_bilinear_words(error_of([&] {
                               t.unflatten(1, {3, 5});
                             }),
                             "don't multiply up to the size of dim 1 (12)");

  Tensor w = zeros({4, 3, 5});
  expect_fold_bilinear_words(error_of([&] {
                               bilinear(zeros({2, 4}), zeros({2, 5}), w);
                             }),
                             "[bilinear] input1's last dim (4) does not match weight's dim 1");
  expect_fold_bilinear_words(error_of([&] {
                               bilinear(zeros({2, 3}), zeros({2, 6}), w);
                             }),
                             "[bilinear] input2's last dim (6) does not match weight's dim 2");
  expect_fold_bilinear_words(error_of([&] {
                               bilinear(zeros({2, 3}), zeros({3, 5}), w);
                             }),
                             "[bilinear] input batch dimensions do not match");
  expect_fold_bilinear_words(error_of([&] {
                               bilinear(zeros({2, 3}), zeros({1, 2, 5}), w);
                             }),
                             "[bilinear] input dimensions do not match");
  expect_fold_bilinear_words(error_of([&] {
                               bilinear(zeros({2, 3}), zeros({2, 5}), zeros({3, 5}));
                             }),
                             "[bilinear] expected a 3-D weight");
  expect_fold_bilinear_words(error_of([&] {
                               bilinear(zeros({2, 3}), zeros({2, 5}), w, zeros({3}));
                             }),
                             "[bilinear] expected a bias of shape [4]");

  expect_fold_bilinear_words(error_of([&] {
                               F::unfold(zeros({2, 3, 4}), F::UnfoldFuncOptions(2));
                             }),
                             "Only 4D input Tensors are supported (got 3D)");
  expect_fold_bilinear_words(
      error_of([&] {
        F::unfold(zeros({1, 2, 1, 1}), F::UnfoldFuncOptions(2));
      }),
      "calculated shape of the array of sliding blocks as (0, 0), but its components must be at "
      "least one");
  expect_fold_bilinear_words(
      error_of([&] {
        F::fold(zeros({1, 2, 3, 4}), F::FoldFuncOptions(3, 2));
      }),
      "Only unbatched (2D) or batched (3D) input Tensors are supported (got 4D)");
  expect_fold_bilinear_words(
      error_of([&] {
        F::fold(zeros({2, 13, 4}), F::FoldFuncOptions(3, 2));
      }),
      "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
      "got input.size(1)=13 and kernel_size=(2, 2)");
  expect_fold_bilinear_words(
      error_of([&] {
        F::fold(zeros({2, 12, 5}), F::FoldFuncOptions(3, 2));
      }),
      "expected size of input's dimension 2 to match the calculated number of sliding blocks "
      "2 * 2 = 4, but got input.size(2)=5");
}

}  // namespace
}  // namespace ember::test
