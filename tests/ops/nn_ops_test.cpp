// conv2d, max/avg pooling, layer_norm, batch_norm, embedding and dropout: forward values against
// references computed here, gradients by finite differences, and the error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "test_util.h"

namespace ember::test {
namespace {

// Expects `message` (an error_of result) to contain `part`.
#define EXPECT_HAS(message, part)                                                             \
  do {                                                                                        \
    std::string m_ = (message);                                                               \
    EXPECT_NE(m_.find(part), std::string::npos) << "'" << m_ << "' lacks '" << (part) << "'"; \
  } while (0)

Tensor seeded_randn(IntArrayRef shape, uint64_t seed, ScalarType dtype = kFloat64) {
  manual_seed(seed);
  return randn(shape, dtype);
}

// The definition of a 2-D convolution, seven loops deep, in double.
std::vector<double> naive_conv2d(const Tensor& x, const Tensor& w, const Tensor& b, int64_t sh,
                                 int64_t sw, int64_t ph, int64_t pw, int64_t dh, int64_t dw,
                                 int64_t groups, int64_t* oh_out, int64_t* ow_out) {
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), wd = x.size(3);
  const int64_t o = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3);
  const int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
  const int64_t ow = (wd + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
  *oh_out = oh;
  *ow_out = ow;
  std::vector<double> xv = x.to_vector<double>(), wv = w.to_vector<double>();
  std::vector<double> bv = b.defined() ? b.to_vector<double>() : std::vector<double>(o, 0.0);
  std::vector<double> out(n * o * oh * ow);
  const int64_t og = o / groups;
  for (int64_t in = 0; in < n; ++in)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z) {
          double acc = bv[oc];
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t yy = y * sh - ph + i * dh, zz = z * sw - pw + j * dw;
                if (yy < 0 || yy >= h || zz < 0 || zz >= wd) continue;
                int64_t channel = (oc / og) * cg + ic;
                acc += xv[((in * c + channel) * h + yy) * wd + zz] *
                       wv[((oc * cg + ic) * kh + i) * kw + j];
              }
          out[((in * o + oc) * oh + y) * ow + z] = acc;
        }
  return out;
}

TEST(NnOpsConv, MatchesNaiveLoops) {
  struct Case {
    std::vector<int64_t> x, w;
    int64_t sh, sw, ph, pw, dh, dw, groups;
    bool bias;
  };
  std::vector<Case> cases = {
      {{2, 3, 6, 5}, {4, 3, 3, 3}, 1, 1, 0, 0, 1, 1, 1, true},
      {{2, 3, 7, 6}, {4, 3, 3, 2}, 2, 1, 1, 2, 2, 1, 1, false},
      {{1, 4, 8, 7}, {6, 2, 2, 3}, 2, 2, 1, 1, 1, 2, 2, true},
      {{3, 2, 5, 5}, {2, 2, 1, 1}, 1, 1, 0, 0, 1, 1, 1, true},
  };
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    for (const Case& c : cases) {
      Tensor x = seeded_randn(c.x, 1, dtype), w = seeded_randn(c.w, 2, dtype);
      Tensor b = c.bias ? seeded_randn({c.w[0]}, 3, dtype) : Tensor();
      Tensor out = conv2d(x, w, b, {c.sh, c.sw}, {c.ph, c.pw}, {c.dh, c.dw}, c.groups);
      int64_t oh, ow;
      std::vector<double> ref =
          naive_conv2d(x, w, b, c.sh, c.sw, c.ph, c.pw, c.dh, c.dw, c.groups, &oh, &ow);
      EXPECT_EQ(out.dtype(), dtype);
      double tol = dtype == kFloat32 ? 1e-4 : 1e-10;
      expect_close(out, {c.x[0], c.w[0], oh, ow}, ref, tol, tol);
    }
  }
}

#define FN(body) [=](const std::vector<Tensor>& x) -> Tensor { return body; }

// Note [Convolution per image]: on the CPU a batch of at least the thread count runs one product
// per image, a smaller one the batched product. Both give the same values and gradients; with two
// threads the per-image form splits the batch in two parts and adds their weight and bias sums.
TEST(NnOpsConv, PerImageAndBatchedProductsAgree) {
  const int saved_threads = get_num_threads();
  struct Case {
    std::vector<int64_t> x, w;
    std::vector<int64_t> stride, padding, dilation;
    int64_t groups;
  };
  const std::vector<Case> cases = {
      {{3, 4, 7, 6}, {6, 2, 3, 2}, {2, 1}, {1, 0}, {1, 2}, 2},
      {{4, 1, 9, 9}, {5, 1, 5, 5}, {1, 1}, {2, 2}, {1, 1}, 1},
      // Rows longer than one 64-byte move (Note [Columns from a padded plane]), and a stride
      // along the width, which takes the columns without the padded plane.
      {{2, 2, 5, 40}, {3, 2, 2, 3}, {1, 1}, {1, 1}, {1, 1}, 1},
      {{2, 3, 6, 21}, {4, 3, 3, 3}, {1, 2}, {0, 1}, {2, 1}, 1},
      // Dilation in both dims over several moves a row, and rows of one output each.
      {{2, 2, 9, 40}, {3, 2, 3, 2}, {1, 1}, {2, 1}, {2, 3}, 1},
      {{2, 3, 5, 3}, {2, 3, 2, 3}, {1, 1}, {0, 0}, {1, 1}, 1},
  };
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    for (const Case& c : cases) {
      std::vector<Tensor> results[2];
      for (int per_image = 0; per_image < 2; ++per_image) {
        set_num_threads(per_image ? 2 : static_cast<int>(c.x[0]) + 1);
        Tensor x = seeded_randn(c.x, 1, dtype).requires_grad_();
        Tensor w = seeded_randn(c.w, 2, dtype).requires_grad_();
        Tensor b = seeded_randn({c.w[0]}, 3, dtype).requires_grad_();
        Tensor out = conv2d(x, w, b, c.stride, c.padding, c.dilation, c.groups);
        (out * seeded_randn(out.sizes(), 4, dtype)).sum().backward();
        results[per_image] = {out, x.grad(), w.grad(), b.grad()};
      }
      const double tol = dtype == kFloat32 ? 1e-5 : 1e-12;
      for (size_t i = 0; i < results[0].size(); ++i)
        EXPECT_TRUE(allclose(results[1][i], results[0][i], tol, tol))
            << "result " << i << " of the case with groups " << c.groups << ", " << dtype;
    }
  }
  set_num_threads(2);  // the per-image kernels under gradcheck (its second order is batched)
  gradcheck("conv2d per image", FN(conv2d(x[0], x[1], x[2], {2, 1}, {1, 0}, {1, 2}, 2)),
            {seeded_randn({2, 4, 5, 6}, 5), seeded_randn({4, 2, 2, 3}, 6), seeded_randn({4}, 7)});
  set_num_threads(saved_threads);
}

TEST(NnOpsConv, UnbatchedAndScalarArguments) {
  Tensor x = seeded_randn({2, 5, 5}, 4), w = seeded_randn({3, 2, 3, 3}, 5);
  Tensor out = conv2d(x, w, Tensor(), 2, 1);
  ASSERT_EQ(out.sizes(), IntArrayRef({3, 3, 3}));
  Tensor batched = conv2d(x.unsqueeze(0), w, Tensor(), {2, 2}, {1, 1});
  EXPECT_TRUE(allclose(out, batched.squeeze(0)));
}

TEST(NnOpsConv, GradFnName) {
  Tensor x = seeded_randn({1, 2, 4, 4}, 1).requires_grad_();
  Tensor w = seeded_randn({2, 2, 3, 3}, 2).requires_grad_();
  Tensor out = conv2d(x, w);
  EXPECT_EQ(out.grad_fn()->name(), "ConvolutionBackward0");
  Tensor plain = conv2d(x.detach(), w.detach());
  EXPECT_FALSE(plain.requires_grad());
}

TEST(NnOpsConv, Errors) {
  Tensor x = zeros({1, 3, 5, 5}), w = zeros({4, 6, 3, 3});
  std::string rank = error_of<ValueError>([&] { conv2d(zeros({5, 5}), zeros({1, 1, 3, 3})); });
  EXPECT_HAS(rank, "[conv2d]");
  EXPECT_HAS(rank, "[5, 5]");
  std::string channels = error_of<ValueError>([&] { conv2d(x, w); });
  EXPECT_HAS(channels, "[conv2d] Given groups=1, weight of size [4, 6, 3, 3]");
  EXPECT_HAS(channels, "expected input[1, 3, 5, 5] to have 6 channels");
  std::string big = error_of<ValueError>([&] { conv2d(zeros({1, 1, 3, 3}), zeros({1, 1, 5, 5})); });
  EXPECT_HAS(big, "Kernel size can't be greater than actual input size");
  EXPECT_HAS(big, "(3 x 3)");
  EXPECT_EQ(error_of<ValueError>([&] {
              conv2d(zeros({1, 1, 3, 3}), zeros({1, 1, 5, 5}), Tensor(), 1, 1);
            }),
            "");
  EXPECT_HAS(error_of<ValueError>([&] {
               conv2d(x, zeros({4, 3, 3, 3}), Tensor(), {1, 2, 3});
             }),
             "[conv2d] stride must be one int or two");
  EXPECT_HAS(error_of<ValueError>([&] { conv2d(x, zeros({4, 3, 3, 3}), zeros({3})); }), "bias");
  EXPECT_HAS(error_of<TypeError>([&] {
               conv2d(x, zeros({4, 3, 3, 3}, kFloat64));
             }),
             "should be the same");
  EXPECT_HAS(error_of<ValueError>([&] {
               conv2d(x, zeros({4, 1, 3, 3}), Tensor(), 1, 0, 1, 2);
             }),
             "groups=2");
}

TEST(GradcheckNnOps, Conv2d) {
  Tensor input = seeded_randn({2, 2, 5, 6}, 1), weight = seeded_randn({3, 2, 2, 3}, 2),
         bias = seeded_randn({3}, 3);
  gradcheck("conv2d s2 p1 d2 bias", FN(conv2d(x[0], x[1], x[2], 2, 1, 2)), {input, weight, bias});
  gradcheck("conv2d s2 p1 d2", FN(conv2d(x[0], x[1], Tensor(), 2, 1, 2)), {input, weight});
  gradcheck("conv2d asymmetric", FN(conv2d(x[0], x[1], x[2], {1, 2}, {0, 1}, {1, 2})),
            {input, weight, bias});
  gradcheck("conv2d groups", FN(conv2d(x[0], x[1], x[2], 1, 1, 1, 2)),
            {seeded_randn({1, 4, 4, 4}, 4), seeded_randn({4, 2, 3, 3}, 5), seeded_randn({4}, 6)});
  gradcheck("conv2d unbatched", FN(conv2d(x[0], x[1], Tensor(), 1, 1)),
            {seeded_randn({2, 4, 4}, 7), seeded_randn({2, 2, 3, 3}, 8)});
}

TEST(NnOpsPool, MaxPoolByHand) {
  Tensor x = arange(16, kFloat32).view({1, 1, 4, 4});
  expect_close(max_pool2d(x, 2), {1, 1, 2, 2}, {5, 7, 13, 15});
  // kernel 3, stride 2, padding 1: windows start at -1 and 1.
  expect_close(max_pool2d(x, 3, 2, 1), {1, 1, 2, 2}, {5, 7, 13, 15});
  // ceil_mode keeps the partial last window: 5 -> 3 outputs.
  Tensor y = arange(25, kFloat64).view({1, 5, 5});
  expect_close(max_pool2d(y, 2, 2, 0, 1, true), {1, 3, 3}, {6, 8, 9, 16, 18, 19, 21, 23, 24});
  expect_close(max_pool2d(y, 2, 2), {1, 2, 2}, {6, 8, 16, 18});
  // dilation 2: taps 0 and 2.
  expect_close(max_pool2d(y, 2, 1, 0, 2), {1, 3, 3}, {12, 13, 14, 17, 18, 19, 22, 23, 24});
  // non-monotone values: the gradient lands on each window's maximum.
  Tensor z =
      tensor({{3.0, 1.0, 0.0, 2.0}, {0.0, 2.0, 9.0, 1.0}}, kFloat64).view({1, 1, 2, 4}).clone();
  z.requires_grad_();
  Tensor m = max_pool2d(z, 2);
  EXPECT_EQ(m.grad_fn()->name(), "MaxPool2DWithIndicesBackward0");
  expect_close(m, {1, 1, 1, 2}, {3, 9});
  m.sum().backward();
  expect_close(z.grad(), {1, 1, 2, 4}, {1, 0, 0, 0, 0, 0, 1, 0});
}

// A window with two NaNs: its output's index is the last NaN's, and a tie keeps the first
// maximum (torch 1.13: values [nan, 7, nan, 7], indices [3, 5, 3, 5]).
TEST(NnOpsPool, MaxPoolIndexOfNaNAndTies) {
  Tensor x = tensor({NAN, 1.f, 5.f, NAN, 2.f, 7.f, 0.f, 0.f, 0.f}).view({1, 1, 3, 3});
  auto [values, indices] = max_pool2d_with_indices(x, 2, 1);
  std::vector<float> v = values.to_vector<float>();
  EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[2]));
  EXPECT_EQ(v[1], 7.f);
  EXPECT_EQ(v[3], 7.f);
  EXPECT_EQ(indices.to_vector<int64_t>(), (std::vector<int64_t>{3, 5, 3, 5}));
  auto [tie_values, tie_indices] =
      max_pool2d_with_indices(tensor({3.f, 3.f, 1.f, 2.f}).view({1, 1, 2, 2}), 2);
  EXPECT_EQ(tie_values.item<float>(), 3.f);
  EXPECT_EQ(tie_indices.item<int64_t>(), 0);
}

// max_pool2d's kernel against max_pool3d's gathered windows (pool_windows.cpp), a second
// implementation: rows of more than one chunk of the interior loop, stride, padding, dilation,
// and NaNs.
TEST(NnOpsPool, MaxPool2dAgreesWithTheGatheredWindows) {
  for (ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    Tensor x = seeded_randn({2, 3, 6, 150}, 1).to(dtype);
    x.view({-1}).index_put_({tensor(std::vector<int64_t>{7, 300, 301, 2000, 4000})}, NAN);
    auto [values, indices] = max_pool2d_with_indices(x, {2, 3}, {1, 2}, {1, 1}, {2, 1});
    auto [values3d, indices3d] =
        max_pool3d_with_indices(x.unsqueeze(2), {1, 2, 3}, {1, 1, 2}, {0, 1, 1}, {1, 2, 1});
    EXPECT_TRUE(equal(indices, indices3d.squeeze(2))) << dtype;
    EXPECT_TRUE(allclose(values, values3d.squeeze(2), 0, 0, /*equal_nan=*/true)) << dtype;
  }
}

// The gathered-window pools (max_pool3d, the adaptive max pools) follow the same rule. torch 1.13
// gives these indices.
TEST(NnOpsPool, GatheredMaxPoolsTakeTheLastNaN) {
  Tensor x = tensor({NAN, 1.f, 5.f, NAN, 2.f, 7.f, 0.f, 0.f, 0.f}).view({1, 1, 1, 3, 3});
  const std::vector<int64_t> expected{3, 5, 3, 5};
  EXPECT_EQ(std::get<1>(max_pool3d_with_indices(x, {1, 2, 2}, 1)).to_vector<int64_t>(), expected);
  EXPECT_EQ(std::get<1>(adaptive_max_pool3d(x, {1, 2, 2})).to_vector<int64_t>(), expected);
  auto [values, indices] = adaptive_max_pool2d(x.view({1, 1, 3, 3}), {2, 2});
  EXPECT_EQ(indices.to_vector<int64_t>(), expected);
  std::vector<float> v = values.to_vector<float>();
  EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[2]));
  EXPECT_EQ(v[1], 7.f);
  Tensor line = tensor({NAN, 1.f, NAN, 3.f, 3.f, 2.f}).view({1, 1, 6});
  EXPECT_EQ(std::get<1>(adaptive_max_pool1d(line, {2})).to_vector<int64_t>(),
            (std::vector<int64_t>{2, 3}));  // and a tie keeps the first
  Tensor tie = tensor({3.f, 3.f, 1.f, 2.f}).view({1, 1, 1, 2, 2});
  EXPECT_EQ(std::get<1>(max_pool3d_with_indices(tie, {1, 2, 2})).item<int64_t>(), 0);
  // Windows of -inf reaching into the padding: the first tap inside (torch 1.13: [0, 0, 1] and
  // [0, 0, 3, 3]).
  EXPECT_EQ(std::get<1>(
                max_pool3d_with_indices(full({1, 1, 1, 1, 3}, -INFINITY), {1, 1, 3}, 1, {0, 0, 1}))
                .to_vector<int64_t>(),
            (std::vector<int64_t>{0, 0, 1}));
  Tensor rising = tensor({-INFINITY, -INFINITY, -INFINITY, 2.f}).view({1, 1, 1, 1, 4});
  EXPECT_EQ(
      std::get<1>(max_pool3d_with_indices(rising, {1, 1, 3}, 1, {0, 0, 1})).to_vector<int64_t>(),
      (std::vector<int64_t>{0, 0, 3, 3}));
}

TEST(NnOpsPool, AvgPoolByHand) {
  Tensor x = arange(16, kFloat64).view({1, 1, 4, 4});
  expect_close(avg_pool2d(x, 2), {1, 1, 2, 2}, {2.5, 4.5, 10.5, 12.5});
  // padding counts as zeros in the average (count_include_pad): the corner window is
  // (0 + 1 + 4 + 5) / 9.
  Tensor p = avg_pool2d(x, 3, 2, 1);
  ASSERT_EQ(p.sizes(), IntArrayRef({1, 1, 2, 2}));
  EXPECT_NEAR(p.view({-1})[0].item<double>(), 10.0 / 9.0, 1e-12);
  Tensor r = avg_pool2d(x.clone().requires_grad_(), 2);
  EXPECT_EQ(r.grad_fn()->name(), "AvgPool2DBackward0");
}

TEST(NnOpsPool, Errors) {
  EXPECT_HAS(error_of<ValueError>([] {
               max_pool2d(zeros({4, 4}), 2);
             }),
             "[max_pool2d] Expected 3D (unbatched [C, H, W]) or 4D");
  EXPECT_HAS(error_of<ValueError>([] {
               max_pool2d(zeros({1, 4, 4}), 3, 1, 2);
             }),
             "pad should be at most half of effective kernel size");
  EXPECT_HAS(error_of<ValueError>([] { max_pool2d(zeros({1, 2, 2}), 3); }), "too small");
  EXPECT_HAS(error_of<ValueError>([] {
               avg_pool2d(zeros({1, 1, 4, 4}), 0);
             }),
             "[avg_pool2d] kernel_size must be positive");
}

TEST(GradcheckNnOps, Pooling) {
  // A permutation scaled apart: no ties within a window, so the max is differentiable.
  manual_seed(11);
  Tensor perm = argsort(rand({2 * 2 * 5 * 6}, kFloat64)).to(kFloat64).view({2, 2, 5, 6}) * 0.1;
  gradcheck("max_pool2d", FN(max_pool2d(x[0], 2)), {perm});
  gradcheck("max_pool2d s1 p1", FN(max_pool2d(x[0], 3, 1, 1)), {perm});
  gradcheck("max_pool2d dilation ceil", FN(max_pool2d(x[0], {2, 3}, 2, 0, {2, 1}, true)), {perm});
  gradcheck("avg_pool2d", FN(avg_pool2d(x[0], {2, 3}, {1, 2}, {1, 1})), {perm});
}

TEST(NnOpsNorm, LayerNormMatchesReference) {
  Tensor x = seeded_randn({3, 2, 4}, 1), w = seeded_randn({2, 4}, 2), b = seeded_randn({2, 4}, 3);
  Tensor out = layer_norm(x, {2, 4}, w, b, 1e-5);
  std::vector<double> xv = x.to_vector<double>(), wv = w.to_vector<double>(),
                      bv = b.to_vector<double>(), ref(xv.size());
  for (int r = 0; r < 3; ++r) {
    double mean = 0, var = 0;
    for (int i = 0; i < 8; ++i) mean += xv[r * 8 + i] / 8;
    for (int i = 0; i < 8; ++i) var += (xv[r * 8 + i] - mean) * (xv[r * 8 + i] - mean) / 8;
    for (int i = 0; i < 8; ++i)
      ref[r * 8 + i] = (xv[r * 8 + i] - mean) / std::sqrt(var + 1e-5) * wv[i] + bv[i];
  }
  expect_close(out, {3, 2, 4}, ref, 1e-10, 1e-10);
  Tensor plain = layer_norm(x.to(kFloat32), 4);
  expect_close(plain.mean({-1}), {3, 2}, std::vector<double>(6, 0.0), 0, 1e-5);
  Tensor g = layer_norm(x.clone().requires_grad_(), {4}, w[0].clone().requires_grad_());
  EXPECT_EQ(g.grad_fn()->name(), "NativeLayerNormBackward0");
  EXPECT_HAS(error_of<ValueError>([&] { layer_norm(x, {3}); }),
             "[layer_norm] Given normalized_shape=[3]");
  EXPECT_HAS(error_of<ValueError>([&] { layer_norm(x, {4}, zeros({3})); }), "weight of size [3]");
}

TEST(NnOpsNorm, BatchNormTrainingUpdatesRunningStats) {
  Tensor x = tensor({{1.0, 2.0}, {3.0, 6.0}, {5.0, 10.0}}, kFloat64);
  Tensor running_mean = zeros({2}, kFloat64), running_var = ones({2}, kFloat64);
  Tensor out = batch_norm(x, Tensor(), Tensor(), running_mean, running_var, true, 0.1, 1e-5);
  // Batch means 3 and 6; biased variances 8/3 and 32/3 normalise, unbiased 4 and 16 update.
  expect_close(running_mean, {2}, {0.3, 0.6}, 1e-12, 1e-12);
  expect_close(running_var, {2}, {0.9 + 0.4, 0.9 + 1.6}, 1e-12, 1e-12);
  double s0 = std::sqrt(8.0 / 3 + 1e-5), s1 = std::sqrt(32.0 / 3 + 1e-5);
  expect_close(out, {3, 2}, {-2 / s0, -4 / s1, 0, 0, 2 / s0, 4 / s1}, 1e-10, 1e-10);
  // A second step moves them again by the same rule.
  batch_norm(x, Tensor(), Tensor(), running_mean, running_var, true, 0.5);
  expect_close(running_mean, {2}, {0.5 * 0.3 + 0.5 * 3, 0.5 * 0.6 + 0.5 * 6}, 1e-12, 1e-12);
  expect_close(running_var, {2}, {0.5 * 1.3 + 0.5 * 4, 0.5 * 2.5 + 0.5 * 16}, 1e-12, 1e-12);
}

TEST(NnOpsNorm, BatchNormEvalUsesRunningStats) {
  Tensor x = seeded_randn({2, 3, 2, 2}, 1);
  Tensor rm = tensor({0.5, -1.0, 2.0}, kFloat64), rv = tensor({4.0, 0.25, 1.0}, kFloat64);
  Tensor w = tensor({2.0, 1.0, -1.0}, kFloat64), b = tensor({0.0, 1.0, 3.0}, kFloat64);
  Tensor out = batch_norm(x, w, b, rm, rv, false, 0.1, 0.0);
  std::vector<double> xv = x.to_vector<double>(), ref(xv.size());
  double m[3] = {0.5, -1.0, 2.0}, s[3] = {2.0, 0.5, 1.0}, wv[3] = {2, 1, -1}, bv[3] = {0, 1, 3};
  for (size_t i = 0; i < xv.size(); ++i) {
    size_t c = (i / 4) % 3;
    ref[i] = (xv[i] - m[c]) / s[c] * wv[c] + bv[c];
  }
  expect_close(out, {2, 3, 2, 2}, ref, 1e-12, 1e-12);
  expect_close(rm, {3}, {0.5, -1.0, 2.0});  // untouched in eval
  Tensor g = batch_norm(x.clone().requires_grad_(), w, b, rm, rv, true);
  EXPECT_EQ(g.grad_fn()->name(), "NativeBatchNormBackward0");
  EXPECT_HAS(error_of<ValueError>([&] {
               batch_norm(zeros({1, 3}), Tensor(), Tensor(), Tensor(), Tensor(), true);
             }),
             "Expected more than 1 value per channel when training");
  EXPECT_HAS(error_of<ValueError>([&] {
               batch_norm(zeros({2, 3}), zeros({4}), Tensor(), Tensor(), Tensor(), true);
             }),
             "weight of size [4]");
  EXPECT_HAS(error_of<ValueError>([&] {
               batch_norm(zeros({2, 3}), Tensor(), Tensor(), Tensor(), Tensor(), false);
             }),
             "running_mean and running_var must be defined");
}

TEST(GradcheckNnOps, Normalization) {
  gradcheck("layer_norm affine", FN(layer_norm(x[0], {2, 3}, x[1], x[2])),
            {seeded_randn({4, 2, 3}, 1), seeded_randn({2, 3}, 2), seeded_randn({2, 3}, 3)});
  gradcheck("layer_norm plain", FN(layer_norm(x[0], 5)), {seeded_randn({3, 5}, 4)});
  gradcheck("batch_norm training 4d", FN(batch_norm(x[0], x[1], x[2], Tensor(), Tensor(), true)),
            {seeded_randn({3, 2, 2, 3}, 5), seeded_randn({2}, 6), seeded_randn({2}, 7)});
  gradcheck("batch_norm training 2d",
            FN(batch_norm(x[0], Tensor(), Tensor(), Tensor(), Tensor(), true)),
            {seeded_randn({4, 3}, 8)});
  Tensor rm = seeded_randn({2}, 9), rv = rand({2}, kFloat64) + 0.5;
  gradcheck("batch_norm eval", FN(batch_norm(x[0], x[1], x[2], rm, rv, false)),
            {seeded_randn({3, 2, 4}, 10), seeded_randn({2}, 11), seeded_randn({2}, 12)});
}

TEST(NnOpsEmbedding, ForwardBackwardAndPadding) {
  Tensor w = arange(12, kFloat32).view({4, 3}).clone().requires_grad_();
  Tensor idx = tensor({{1, 3}, {1, 0}, {2, 1}});
  Tensor out = embedding(w, idx, 1);
  EXPECT_EQ(out.grad_fn()->name(), "EmbeddingBackward0");
  expect_close(out, {3, 2, 3}, {3, 4, 5, 9, 10, 11, 3, 4, 5, 0, 1, 2, 6, 7, 8, 3, 4, 5});
  out.sum().backward();
  // Row 1 (padding) gets nothing, the others one per use.
  expect_close(w.grad(), {4, 3}, {1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1});
  expect_close(embedding(w.detach(), tensor({2}, kInt32)), {1, 3}, {6, 7, 8});
  expect_close(embedding(w.detach(), scalar_tensor(3, kInt64)), {3}, {9, 10, 11});
  std::string range = error_of<IndexError>([&] { embedding(w, tensor({0, 4})); });
  EXPECT_HAS(range, "[embedding] index 4 is out of range");
  EXPECT_HAS(range, "4 rows");
  EXPECT_HAS(error_of<IndexError>([&] { embedding(w, tensor({-1})); }), "index -1");
  EXPECT_HAS(error_of<TypeError>([&] { embedding(w, tensor({0.0})); }), "Long, Int");
  EXPECT_HAS(error_of<ValueError>([&] { embedding(w, tensor({0}), 4); }),
             "[embedding] padding_idx must be within the number of embeddings, -4 through 3, but "
             "got 4");
}

TEST(GradcheckNnOps, Embedding) {
  Tensor idx = tensor({{0, 2, 2}, {3, 0, 2}});
  gradcheck("embedding repeated", FN(embedding(x[0], idx)), {seeded_randn({4, 3}, 1)});
  // padding_idx is deliberately not the true gradient (PyTorch's gradcheck fails on it too):
  // with the padding row unused the masked path must still be exact ...
  gradcheck("embedding padding_idx unused", FN(embedding(x[0], idx, 1)), {seeded_randn({4, 3}, 2)});
  // ... and with it used, the gradient is the true one with the padding row zeroed.
  for (int64_t pad : {2, -2}) {
    Tensor w = seeded_randn({4, 3}, 3).requires_grad_(), v = seeded_randn({2, 3, 3}, 4);
    Tensor w2 = w.detach().clone().requires_grad_();
    (embedding(w, idx, pad) * v).sum().backward();
    (embedding(w2, idx) * v).sum().backward();
    Tensor expected = w2.grad().clone();
    expected[pad < 0 ? 4 + pad : pad].zero_();
    EXPECT_TRUE(allclose(w.grad(), expected)) << "padding_idx " << pad;
  }
}

TEST(NnOpsDropout, MaskScaleAndSeed) {
  Tensor x = ones({1000}, kFloat64) * 2.0;
  EXPECT_TRUE(dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(dropout(x, 0.0, true).is_same(x));
  manual_seed(5);
  Tensor a = dropout(x, 0.25, true);
  manual_seed(5);
  Tensor b = dropout(x, 0.25, true);
  EXPECT_TRUE(equal(a, b));
  int64_t kept = 0;
  for (double v : a.to_vector<double>()) {
    EXPECT_TRUE(v == 0.0 || std::abs(v - 2.0 / 0.75) < 1e-12) << v;
    kept += v != 0.0;
  }
  EXPECT_GT(kept, 650);
  EXPECT_LT(kept, 850);
  expect_close(dropout(x, 1.0, true), {1000}, std::vector<double>(1000, 0.0));

  Tensor y = ones({50}, kFloat32).requires_grad_();
  Tensor d = dropout(y, 0.4, true);
  EXPECT_EQ(d.grad_fn()->name(), "NativeDropoutBackward0");
  d.sum().backward();
  EXPECT_TRUE(allclose(y.grad(), d.detach()));  // the gradient is the scaled mask itself
  EXPECT_HAS(error_of<ValueError>([&] { dropout(x, 1.5, true); }),
             "[dropout] dropout probability has to be between 0 and 1, but got 1.5");
  EXPECT_HAS(error_of<ValueError>([&] { dropout(x, -0.1, false); }), "between 0 and 1");
}

TEST(GradcheckNnOps, Dropout) {
  // Reseeding inside f makes every evaluation draw the same mask.
  gradcheck("dropout",
            [](const std::vector<Tensor>& x) {
              manual_seed(3);
              return dropout(x[0], 0.3, true);
            },
            {seeded_randn({4, 5}, 1)});
}

}  // namespace
}  // namespace ember::test
