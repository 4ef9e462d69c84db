// CPU im2col / col2im (conv2d, avg_pool2d) and max pooling with indices: one (image, channel)
// plane per task, so threads never write the same memory.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "kernels/conv_stubs.h"
#include "kernels/dtype_dispatch.h"

namespace ember::cpu {
namespace {

using kernels::Window2d;
using kernels::window_source;

inline bool inside(int64_t i, int64_t size) {
  return static_cast<uint64_t>(i) < static_cast<uint64_t>(size);
}

// Planes per task so that a task holds about kGrainSize elements of work.
int64_t plane_grain(int64_t work_per_plane) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(work_per_plane, 1));
}

void im2col_kernel(const Tensor& input, const Tensor& cols, const Window2d& w) {
  const int64_t planes = input.size(0) * input.size(1), plane = w.height * w.width;
  const int64_t taps = w.kh * w.kw, out_plane = w.out_h * w.out_w;
  kernels::dispatch_floating(input.scalar_type(), "im2col", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = input.data_ptr<T>();
    T* dst = cols.data_ptr<T>();
    parallel_for(planes, plane_grain(taps * out_plane), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* in = src + p * plane;
        T* row = dst + p * taps * out_plane;  // rows (c, i, j) of one channel are consecutive
        for (int64_t i = 0; i < w.kh; ++i)
          for (int64_t j = 0; j < w.kw; ++j, row += out_plane)
            for (int64_t oh = 0; oh < w.out_h; ++oh) {
              int64_t ih = window_source(oh, i, w.sh, w.ph, w.dh);
              T* out = row + oh * w.out_w;
              if (!inside(ih, w.height)) {
                for (int64_t ow = 0; ow < w.out_w; ++ow) out[ow] = T(0);
                continue;
              }
              for (int64_t ow = 0; ow < w.out_w; ++ow) {
                int64_t iw = window_source(ow, j, w.sw, w.pw, w.dw);
                out[ow] = inside(iw, w.width) ? in[ih * w.width + iw] : T(0);
              }
            }
      }
    });
  });
}

void col2im_kernel(const Tensor& cols, const Tensor& out, const Window2d& w) {
  const int64_t planes = out.size(0) * out.size(1), plane = w.height * w.width;
  const int64_t taps = w.kh * w.kw, out_plane = w.out_h * w.out_w;
  kernels::dispatch_floating(out.scalar_type(), "col2im", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = kernels::opmath_t<T>;
    const T* src = cols.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    parallel_for(planes, plane_grain(taps * out_plane), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* img = dst + p * plane;
        const T* row = src + p * taps * out_plane;
        for (int64_t i = 0; i < w.kh; ++i)
          for (int64_t j = 0; j < w.kw; ++j, row += out_plane)
            for (int64_t oh = 0; oh < w.out_h; ++oh) {
              int64_t ih = window_source(oh, i, w.sh, w.ph, w.dh);
              if (!inside(ih, w.height)) continue;
              const T* in = row + oh * w.out_w;
              for (int64_t ow = 0; ow < w.out_w; ++ow) {
                int64_t iw = window_source(ow, j, w.sw, w.pw, w.dw);
                if (inside(iw, w.width)) {
                  T& dst_value = img[ih * w.width + iw];
                  dst_value = static_cast<T>(static_cast<M>(dst_value) + static_cast<M>(in[ow]));
                }
              }
            }
      }
    });
  });
}

void max_pool2d_kernel(const Tensor& input, const Tensor& values, const Tensor& indices,
                       const Window2d& w) {
  const int64_t planes = input.size(0), plane = w.height * w.width;
  const int64_t out_plane = w.out_h * w.out_w;
  kernels::dispatch_floating(input.scalar_type(), "max_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = kernels::opmath_t<T>;
    const T* src = input.data_ptr<T>();
    T* val = values.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    parallel_for(planes, plane_grain(out_plane * w.kh * w.kw), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* in = src + p * plane;
        for (int64_t oh = 0; oh < w.out_h; ++oh)
          for (int64_t ow = 0; ow < w.out_w; ++ow) {
            M best = -INFINITY;
            int64_t best_at = -1;
            for (int64_t i = 0; i < w.kh; ++i) {
              int64_t ih = window_source(oh, i, w.sh, w.ph, w.dh);
              if (!inside(ih, w.height)) continue;
              for (int64_t j = 0; j < w.kw; ++j) {
                int64_t iw = window_source(ow, j, w.sw, w.pw, w.dw);
                if (!inside(iw, w.width)) continue;
                M v = static_cast<M>(in[ih * w.width + iw]);
                if (best_at < 0 || v > best || (std::isnan(v) && !std::isnan(best))) {
                  best = v;
                  best_at = ih * w.width + iw;
                }
              }
            }
            int64_t o = p * out_plane + oh * w.out_w + ow;
            val[o] = static_cast<T>(best);
            idx[o] = best_at < 0 ? 0 : best_at;  // a window of padding only cannot happen
          }
      }
    });
  });
}

}  // namespace

void register_conv_kernels() {
  using namespace kernels;
  im2col_stub.set(DeviceType::CPU, &im2col_kernel);
  col2im_stub.set(DeviceType::CPU, &col2im_kernel);
  max_pool2d_stub.set(DeviceType::CPU, &max_pool2d_kernel);
}

}  // namespace ember::cpu
