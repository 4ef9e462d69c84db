// The CUDA im2col, col2im and max-pooling kernels' per-thread work (src/cuda/conv_program.h)
// run on the host for every thread, inside the ops' own compositions (conv2d = im2col + matmul,
// its input gradient = matmul + col2im, avg_pool2d = im2col + mean, max_pool2d's gradient =
// scatter_add at the indices): every result must equal the CPU op's bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cuda/conv_program.h"
#include "ember/ember.h"

namespace ember {
namespace {

using kernels::Window2d;

struct Geometry {
  int64_t n, c, h, w, kh, kw, sh, sw, ph, pw, dh, dw;
};

const std::vector<Geometry> kConvGeometries = {
    {2, 3, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1},    // same padding
    {1, 2, 9, 8, 3, 2, 2, 3, 1, 0, 1, 1},    // strides above 1, overlapping and not
    {2, 1, 11, 10, 3, 3, 2, 1, 2, 1, 2, 3},  // dilation: taps skip pixels
    {1, 4, 5, 5, 5, 5, 1, 1, 0, 0, 1, 1},    // one window covers the plane
    {3, 2, 4, 6, 1, 1, 1, 1, 0, 0, 1, 1},    // 1x1
};

Window2d window(const Geometry& g, int64_t out_h, int64_t out_w) {
  return {g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw, out_h, out_w};
}

template <class T>
T* ptr(const Tensor& t) {
  return static_cast<T*>(t.data_ptr());
}

// conv_kernels.cu's grids, one thread per element, run on the host.
template <class T>
Tensor emulate_im2col(const Tensor& input, const Window2d& w) {
  Tensor cols =
      empty({input.size(0), input.size(1) * w.kh * w.kw, w.out_h * w.out_w}, input.dtype());
  Tensor in = input.contiguous();
  for (int64_t e = 0; e < cols.numel(); ++e) cuda::im2col_element(ptr<T>(in), ptr<T>(cols), w, e);
  return cols;
}
template <class T>
Tensor emulate_col2im(const Tensor& cols, IntArrayRef shape, const Window2d& w) {
  Tensor out = zeros(shape, cols.dtype());
  Tensor c = cols.contiguous();
  for (int64_t e = 0; e < out.numel(); ++e) cuda::col2im_element(ptr<T>(c), ptr<T>(out), w, e);
  return out;
}

void expect_identical(const Tensor& got, const Tensor& want, const char* what) {
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  EXPECT_TRUE(allclose(got, want, 0, 0, /*equal_nan=*/true))
      << what << "\nemulated " << got << "\ncpu " << want;
}

template <class T>
void check_conv(const Geometry& g) {
  const ScalarType t = CppTypeToScalarType<T>::value;
  const int64_t o = 4, k = g.c * g.kh * g.kw;
  Tensor x = randn({g.n, g.c, g.h, g.w}).to(t).requires_grad_();
  Tensor weight = randn({o, g.c, g.kh, g.kw}).to(t);
  Tensor out = conv2d(x, weight, {}, {g.sh, g.sw}, {g.ph, g.pw}, {g.dh, g.dw});
  const Window2d w = window(g, out.size(2), out.size(3));
  const int64_t l = w.out_h * w.out_w;
  {
    NoGradGuard no_grad;
    Tensor cols = emulate_im2col<T>(x, w).view({g.n, 1, k, l});
    Tensor emulated = matmul(weight.reshape({1, 1, o, k}), cols).reshape(out.sizes());
    expect_identical(emulated, out.detach(), "conv2d (im2col)");
  }
  Tensor grad = randn(out.sizes()).to(t);
  out.backward(grad);
  NoGradGuard no_grad;
  Tensor wt = weight.reshape({1, 1, o, k}).transpose(-1, -2);
  Tensor gcols = matmul(wt, grad.reshape({g.n, 1, o, l})).reshape({g.n, k, l});
  expect_identical(emulate_col2im<T>(gcols, x.sizes(), w), x.grad(), "conv2d backward (col2im)");
}

TEST(ConvEmulated, Conv2dForwardAndBackward) {
  manual_seed(21);
  for (const Geometry& g : kConvGeometries) {
    SCOPED_TRACE("geometry " + std::to_string(&g - kConvGeometries.data()));
    check_conv<float>(g);
    check_conv<double>(g);
    // col2im rounds to half after every addition, as the CPU kernel does.
    check_conv<Half>(g);
    check_conv<BFloat16>(g);
  }
}

template <class T>
void check_avg_pool(const Geometry& g) {
  const ScalarType t = CppTypeToScalarType<T>::value;
  Tensor x = randn({g.n, g.c, g.h, g.w}).to(t).requires_grad_();
  Tensor out = avg_pool2d(x, {g.kh, g.kw}, {g.sh, g.sw}, {g.ph, g.pw});
  const Window2d w = window(g, out.size(2), out.size(3));
  const int64_t planes = g.n * g.c, l = w.out_h * w.out_w, taps = g.kh * g.kw;
  Tensor grad = randn(out.sizes()).to(t);
  out.backward(grad);
  NoGradGuard no_grad;
  Tensor cols = emulate_im2col<T>(x.view({planes, 1, g.h, g.w}), w);
  expect_identical(cols.mean({1}).view(out.sizes()), out.detach(), "avg_pool2d (im2col)");
  Tensor gcols = (grad.reshape({planes, 1, l}) / static_cast<double>(taps))
                     .expand({planes, taps, l})
                     .contiguous();
  expect_identical(emulate_col2im<T>(gcols, {planes, 1, g.h, g.w}, w).view(x.sizes()), x.grad(),
                   "avg_pool2d backward (col2im)");
}

TEST(ConvEmulated, AvgPool2dForwardAndBackward) {
  manual_seed(22);
  // avg_pool2d: no dilation, padding at most half the kernel.
  for (const Geometry& g :
       {Geometry{2, 3, 8, 7, 2, 2, 2, 2, 0, 0, 1, 1}, Geometry{1, 2, 9, 9, 3, 3, 2, 1, 1, 1, 1, 1},
        Geometry{2, 1, 6, 10, 3, 5, 1, 3, 1, 2, 1, 1}}) {
    check_avg_pool<float>(g);
    check_avg_pool<double>(g);
    check_avg_pool<Half>(g);
  }
}

template <class T>
void check_max_pool(const Tensor& input, const Geometry& g, bool ceil_mode) {
  Tensor x = input.detach().requires_grad_();
  Tensor out = max_pool2d(x, {g.kh, g.kw}, {g.sh, g.sw}, {g.ph, g.pw}, {g.dh, g.dw}, ceil_mode);
  const Window2d w = window(g, out.size(-2), out.size(-1));
  const int64_t planes = x.numel() / (g.h * g.w), l = w.out_h * w.out_w;
  Tensor grad = randn(out.sizes()).to(x.dtype());
  out.backward(grad);
  NoGradGuard no_grad;
  Tensor in = x.detach().contiguous();
  Tensor values = empty(out.sizes(), x.dtype()), indices = empty(out.sizes(), kInt64);
  for (int64_t e = 0; e < values.numel(); ++e)
    cuda::max_pool2d_element(ptr<T>(in), ptr<T>(values), ptr<int64_t>(indices), w, e);
  expect_identical(values, out.detach(), "max_pool2d values");
  // The indices, through the gradient they route (first maximum on ties).
  Tensor gx = scatter_add(zeros({planes, g.h * g.w}, x.dtype()), 1, indices.reshape({planes, l}),
                          grad.reshape({planes, l}));
  expect_identical(gx.view(x.sizes()), x.grad(), "max_pool2d backward (indices)");
}

TEST(ConvEmulated, MaxPool2d) {
  manual_seed(23);
  for (const Geometry& g :
       {Geometry{2, 3, 8, 7, 2, 2, 2, 2, 0, 0, 1, 1}, Geometry{1, 2, 9, 9, 3, 3, 2, 1, 1, 1, 1, 1},
        Geometry{2, 1, 11, 10, 3, 3, 2, 2, 1, 1, 2, 2}})
    for (bool ceil_mode : {false, true}) {
      Tensor x = randn({g.n, g.c, g.h, g.w});
      check_max_pool<float>(x, g, ceil_mode);
      check_max_pool<double>(x.to(kFloat64), g, ceil_mode);
      check_max_pool<BFloat16>(x.to(kBFloat16), g, ceil_mode);
      // Ties everywhere: the first maximum of each window must win.
      check_max_pool<float>(round(x).clamp(-1, 1), g, ceil_mode);
    }
  // NaN wins its window, -inf loses to everything but itself.
  Tensor special =
      tensor({{1.f, NAN, 3.f, -INFINITY}, {-INFINITY, -INFINITY, 2.f, NAN}}).view({1, 1, 2, 4});
  check_max_pool<float>(special, {1, 1, 2, 4, 2, 2, 2, 2, 0, 0, 1, 1}, false);
  check_max_pool<float>(special, {1, 1, 2, 4, 1, 3, 1, 1, 0, 1, 1, 1}, false);
}

// window_target inverts window_source: a pixel gets exactly the cols entries im2col took from it.
TEST(ConvEmulated, WindowTargetInvertsWindowSource) {
  for (int64_t stride : {1, 2, 3})
    for (int64_t pad : {0, 1, 2})
      for (int64_t dilation : {1, 2})
        for (int64_t tap = 0; tap < 3; ++tap)
          for (int64_t in = 0; in < 12; ++in) {
            const int64_t out_size = 5;
            int64_t expected = -1;
            for (int64_t out = 0; out < out_size; ++out)
              if (kernels::window_source(out, tap, stride, pad, dilation) == in) expected = out;
            EXPECT_EQ(cuda::detail::window_target(in, tap, stride, pad, dilation, out_size),
                      expected)
                << "in " << in << " tap " << tap << " stride " << stride << " pad " << pad
                << " dilation " << dilation;
          }
}

}  // namespace
}  // namespace ember
