// CPU im2col / col2im (conv2d, avg_pool2d) and max pooling with indices: one (image, channel)
// plane per task, so threads never write the same memory.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

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

// The outputs o in [0, count) whose source o * stride + offset lies in [0, extent): one range,
// so that the loops over it need no bounds test and vectorise (a stride-1 row is a plain copy).
struct Span {
  int64_t begin, end;
};
Span inside_span(int64_t extent, int64_t offset, int64_t stride, int64_t count) {
  // first o with o * stride + offset >= 0; last with o * stride + offset <= extent - 1
  const int64_t begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const int64_t last = extent - 1 - offset;
  const int64_t end = last < 0 ? 0 : last / stride + 1;
  return {std::min(begin, count), std::clamp(end, std::min(begin, count), count)};
}

// `taken ? take : keep` computed on the bits: g++ turns a scalar `?:` on the data into a
// branch, and this form has none in the scalar code and vectorises.
template <class V>
V pick(bool taken, V keep, V take) {
  using U = std::conditional_t<sizeof(V) == 8, uint64_t,
                               std::conditional_t<sizeof(V) == 4, uint32_t, uint16_t>>;
  static_assert(sizeof(U) == sizeof(V));
  const U k = std::bit_cast<U>(keep), t = std::bit_cast<U>(take);
  return std::bit_cast<V>(static_cast<U>(k ^ ((k ^ t) & static_cast<U>(U{0} - U{taken}))));
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
        for (int64_t i = 0; i < w.kh; ++i) {
          const Span rows = inside_span(w.height, i * w.dh - w.ph, w.sh, w.out_h);
          for (int64_t j = 0; j < w.kw; ++j, row += out_plane) {
            const Span cols_in = inside_span(w.width, j * w.dw - w.pw, w.sw, w.out_w);
            std::fill(row, row + rows.begin * w.out_w, T(0));
            for (int64_t oh = rows.begin; oh < rows.end; ++oh) {
              T* out = row + oh * w.out_w;
              const T* from = in + window_source(oh, i, w.sh, w.ph, w.dh) * w.width +
                              window_source(cols_in.begin, j, w.sw, w.pw, w.dw);
              std::fill(out, out + cols_in.begin, T(0));
              if (w.sw == 1) {  // a plain copy, vectorised
                std::copy(from, from + (cols_in.end - cols_in.begin), out + cols_in.begin);
              } else {
                for (int64_t ow = cols_in.begin; ow < cols_in.end; ++ow)
                  out[ow] = from[(ow - cols_in.begin) * w.sw];
              }
              std::fill(out + cols_in.end, out + w.out_w, T(0));
            }
            std::fill(row + rows.end * w.out_w, row + out_plane, T(0));
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
        for (int64_t i = 0; i < w.kh; ++i) {
          const Span rows = inside_span(w.height, i * w.dh - w.ph, w.sh, w.out_h);
          for (int64_t j = 0; j < w.kw; ++j, row += out_plane) {
            const Span cols_in = inside_span(w.width, j * w.dw - w.pw, w.sw, w.out_w);
            for (int64_t oh = rows.begin; oh < rows.end; ++oh) {
              const T* in = row + oh * w.out_w;
              T* to = img + window_source(oh, i, w.sh, w.ph, w.dh) * w.width +
                      window_source(cols_in.begin, j, w.sw, w.pw, w.dw);
              for (int64_t ow = cols_in.begin; ow < cols_in.end; ++ow) {
                T& sum = to[(ow - cols_in.begin) * w.sw];
                sum = static_cast<T>(static_cast<M>(sum) + static_cast<M>(in[ow]));
              }
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
    // Windows wholly inside the input (all of them without padding) skip the bounds tests.
    auto interior = [](int64_t extent, int64_t k, int64_t stride, int64_t pad, int64_t dilation,
                       int64_t count) {
      const Span first = inside_span(extent, -pad, stride, count);
      const Span last = inside_span(extent, (k - 1) * dilation - pad, stride, count);
      return Span{std::max(first.begin, last.begin), std::min(first.end, last.end)};
    };
    const Span rows = interior(w.height, w.kh, w.sh, w.ph, w.dh, w.out_h);
    const Span cols = interior(w.width, w.kw, w.sw, w.pw, w.dw, w.out_w);
    // The first maximum, or the first NaN, as PyTorch. `&` and `|`, not `&&` and `||`, and
    // pick()'s selects: the interior loop below has no branch on the data, so it vectorises. On
    // random inputs half the comparisons go the other way, and as branches their mispredictions
    // made W10's pooling 13 to 19 % of its step.
    auto better = [](M v, M best) { return (v > best) | ((v != v) & (best == best)); };
    // Output (oh, ow) of a window that may reach into the padding: each tap bounds-tested.
    auto edge_output = [&](const T* in, int64_t oh, int64_t ow, T* v_out, int64_t* i_out) {
      M best = -INFINITY;
      int64_t best_at = -1;
      for (int64_t i = 0; i < w.kh; ++i) {
        const int64_t ih = window_source(oh, i, w.sh, w.ph, w.dh);
        if (!inside(ih, w.height)) continue;
        for (int64_t j = 0; j < w.kw; ++j) {
          const int64_t iw = window_source(ow, j, w.sw, w.pw, w.dw);
          if (!inside(iw, w.width)) continue;
          const M v = static_cast<M>(in[ih * w.width + iw]);
          if (best_at < 0 || better(v, best)) {
            best = v;
            best_at = ih * w.width + iw;
          }
        }
      }
      *v_out = static_cast<T>(best);
      *i_out = best_at < 0 ? 0 : best_at;  // a window of padding only cannot happen
    };
    parallel_for(planes, plane_grain(out_plane * w.kh * w.kw), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* in = src + p * plane;
        for (int64_t oh = 0; oh < w.out_h; ++oh) {
          T* v_row = val + p * out_plane + oh * w.out_w;
          int64_t* i_row = idx + p * out_plane + oh * w.out_w;
          const bool interior_row = oh >= rows.begin && oh < rows.end;
          for (int64_t ow = 0; ow < w.out_w; ++ow)
            if (!interior_row || ow < cols.begin || ow >= cols.end)
              edge_output(in, oh, ow, v_row + ow, i_row + ow);
          if (!interior_row) continue;
          // The interior of the row, tap by tap across its outputs (each output still sees its
          // taps in PyTorch's order): no output's result waits on its neighbour's.
          auto tap_at = [&](int64_t i, int64_t j) {
            return window_source(oh, i, w.sh, w.ph, w.dh) * w.width +
                   window_source(0, j, w.sw, w.pw, w.dw);
          };
          // The winner's value is selected, not read again at the winner's index (a gather),
          // and the bounds and stride are locals (the index stores might alias the Window2d's
          // fields): both kept the loop scalar.
          const int64_t begin = cols.begin, end = cols.end, sw = w.sw, first = tap_at(0, 0);
          for (int64_t ow = begin; ow < end; ++ow) {
            i_row[ow] = first + ow * sw;
            v_row[ow] = in[i_row[ow]];
          }
          for (int64_t k = 1; k < w.kh * w.kw; ++k) {
            const int64_t tap = tap_at(k / w.kw, k % w.kw);
            for (int64_t ow = begin; ow < end; ++ow) {
              const int64_t at = tap + ow * sw;
              const bool taken = better(static_cast<M>(in[at]), static_cast<M>(v_row[ow]));
              v_row[ow] = pick(taken, v_row[ow], in[at]);
              i_row[ow] = pick(taken, i_row[ow], at);
            }
          }
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
