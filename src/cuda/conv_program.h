// The CUDA im2col, col2im and max-pooling kernels minus the launch: the work of the thread for
// one element. Compiled by g++ and nvcc (Note [Emulated GPU loop]), so
// tests/cuda/conv_emulated_test.cpp checks it against the CPU kernels without a GPU.
#pragma once

#include <cmath>
#include <cstdint>

#include "ember/macros.h"
#include "kernels/conv_stubs.h"
#include "kernels/dtype_dispatch.h"

namespace ember::cuda {

inline constexpr int kConvThreads = 256;

namespace detail {

EMBER_HOST_DEVICE inline bool inside(int64_t i, int64_t size) {
  return static_cast<uint64_t>(i) < static_cast<uint64_t>(size);
}

// The output position whose window reads input coordinate `in` at tap `tap` along one dim, or -1
// when none does (window_source inverted: out * stride = in + pad - tap * dilation).
EMBER_HOST_DEVICE inline int64_t window_target(int64_t in, int64_t tap, int64_t stride, int64_t pad,
                                               int64_t dilation, int64_t out_size) {
  const int64_t scaled = in + pad - tap * dilation;
  if (scaled < 0 || scaled % stride != 0) return -1;
  const int64_t out = scaled / stride;
  return out < out_size ? out : -1;
}

}  // namespace detail

// Element e of cols [N, C * kh * kw, out_h * out_w] (im2col_stub's layout), one thread each.
template <class T>
EMBER_HOST_DEVICE void im2col_element(const T* input, T* cols, const kernels::Window2d& w,
                                      int64_t e) {
  const int64_t out_plane = w.out_h * w.out_w, taps = w.kh * w.kw;
  const int64_t ow = e % w.out_w, oh = e / w.out_w % w.out_h;
  const int64_t tap = e / out_plane % taps, plane = e / (out_plane * taps);
  const int64_t ih = kernels::window_source(oh, tap / w.kw, w.sh, w.ph, w.dh);
  const int64_t iw = kernels::window_source(ow, tap % w.kw, w.sw, w.pw, w.dw);
  cols[e] = detail::inside(ih, w.height) && detail::inside(iw, w.width)
                ? input[(plane * w.height + ih) * w.width + iw]
                : T(0);
}

// Element e of out [N, C, H, W], one thread each: the sum of the cols entries im2col took from
// this pixel, gathered instead of scattered so that no two threads write one element. The
// entries are added in the CPU kernel's order (taps ascending) with the CPU's rounding to T after
// each, so the results are the CPU's bit for bit.
template <class T>
EMBER_HOST_DEVICE void col2im_element(const T* cols, T* out, const kernels::Window2d& w,
                                      int64_t e) {
  using M = kernels::opmath_t<T>;
  const int64_t out_plane = w.out_h * w.out_w, taps = w.kh * w.kw;
  const int64_t x = e % w.width, y = e / w.width % w.height, plane = e / (w.width * w.height);
  const T* plane_cols = cols + plane * taps * out_plane;
  T sum = out[e];
  for (int64_t i = 0; i < w.kh; ++i) {
    const int64_t oh = detail::window_target(y, i, w.sh, w.ph, w.dh, w.out_h);
    if (oh < 0) continue;
    for (int64_t j = 0; j < w.kw; ++j) {
      const int64_t ow = detail::window_target(x, j, w.sw, w.pw, w.dw, w.out_w);
      if (ow < 0) continue;
      const T v = plane_cols[(i * w.kw + j) * out_plane + oh * w.out_w + ow];
      sum = static_cast<T>(static_cast<M>(sum) + static_cast<M>(v));
    }
  }
  out[e] = sum;
}

// Element e of values/indices [B, out_h, out_w], one thread each: the window's maximum (the last
// NaN wins, the first maximum on ties, as PyTorch) and its flat position in the plane, as the CPU
// kernel.
template <class T>
EMBER_HOST_DEVICE void max_pool2d_element(const T* input, T* values, int64_t* indices,
                                          const kernels::Window2d& w, int64_t e) {
  using M = kernels::opmath_t<T>;
  const int64_t ow = e % w.out_w, oh = e / w.out_w % w.out_h, plane = e / (w.out_w * w.out_h);
  const T* in = input + plane * w.height * w.width;
  M best = -INFINITY;
  int64_t best_at = -1;
  for (int64_t i = 0; i < w.kh; ++i) {
    const int64_t ih = kernels::window_source(oh, i, w.sh, w.ph, w.dh);
    if (!detail::inside(ih, w.height)) continue;
    for (int64_t j = 0; j < w.kw; ++j) {
      const int64_t iw = kernels::window_source(ow, j, w.sw, w.pw, w.dw);
      if (!detail::inside(iw, w.width)) continue;
      const M v = static_cast<M>(in[ih * w.width + iw]);
      if (best_at < 0 || v > best || v != v) {
        best = v;
        best_at = ih * w.width + iw;
      }
    }
  }
  values[e] = static_cast<T>(best);
  indices[e] = best_at < 0 ? 0 : best_at;  // a window of padding only cannot happen
}

}  // namespace ember::cuda
