// CPU im2col / col2im (conv2d, avg_pool2d) and max pooling with indices, one (image, channel)
// plane per task so that threads never write the same memory; and with a BLAS, conv2d and its
// gradients as one product per image (Note [Convolution per image] in ops/conv_gemm.h).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "cpu/blas.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "ember/factory.h"
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

// Copies n elements of a row a few dozen long (W10's are 10 and 28): a libc memmove call for
// each was half of conv2d's time, and a plain loop stays scalar. Fixed-size pieces inline as
// vector moves; the last piece overlaps the one before it instead of a scalar tail.
template <class T>
void copy_short(const T* from, int64_t n, T* to) {
  constexpr int64_t kPiece = 32 / sizeof(T);
  if (n < kPiece) {
    for (int64_t i = 0; i < n; ++i) to[i] = from[i];
    return;
  }
  for (int64_t i = 0; i + kPiece < n; i += kPiece)
    std::memcpy(to + i, from + i, sizeof(T) * kPiece);
  std::memcpy(to + n - kPiece, from + n - kPiece, sizeof(T) * kPiece);
}

// Planes per task so that a task holds about kGrainSize elements of work.
int64_t plane_grain(int64_t work_per_plane) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(work_per_plane, 1));
}

// One [H, W] plane's rows of im2col: taps rows of out_h * out_w, row (i, j) holding the plane at
// (oh * sh - ph + i * dh, ow * sw - pw + j * dw), 0 in the padding. The rows are short (W10's
// are 10 and 28 long): their pointers step by adds, and the loops hold nothing that a store
// might alias, so that per-row work stays small next to the copy.
template <class T>
void im2col_plane(const T* in, T* row, const Window2d& w) {
  const int64_t out_plane = w.out_h * w.out_w, out_w = w.out_w, sw = w.sw;
  const int64_t in_step = w.sh * w.width;  // input elements from one output row to the next
  for (int64_t i = 0; i < w.kh; ++i) {
    const Span rows = inside_span(w.height, i * w.dh - w.ph, w.sh, w.out_h);
    for (int64_t j = 0; j < w.kw; ++j, row += out_plane) {
      const Span cols_in = inside_span(w.width, j * w.dw - w.pw, w.sw, w.out_w);
      const int64_t left = cols_in.begin, count = cols_in.end - cols_in.begin;
      std::fill(row, row + rows.begin * out_w, T(0));
      T* out = row + rows.begin * out_w;
      // The offset of the row's first source, inside the plane where count > 0.
      int64_t at = window_source(rows.begin, i, w.sh, w.ph, w.dh) * w.width +
                   window_source(left, j, w.sw, w.pw, w.dw);
      for (int64_t oh = rows.begin; oh < rows.end; ++oh, out += out_w, at += in_step) {
        for (int64_t ow = 0; ow < left; ++ow) out[ow] = T(0);
        if (count > 0 && sw == 1) {
          copy_short(in + at, count, out + left);
        } else if (count > 0) {
          for (int64_t c = 0; c < count; ++c) out[left + c] = in[at + c * sw];
        }
        for (int64_t ow = left + count; ow < out_w; ++ow) out[ow] = T(0);
      }
      std::fill(row + rows.end * out_w, row + out_plane, T(0));
    }
  }
}

// The adjoint: adds each of the plane's taps rows into the position im2col_plane read it from.
// A stride-1 row is a plain vector add; neighbouring taps add into the same elements, and a
// scalar loop stalled on each element's store before the next tap's load.
template <class T>
void col2im_plane(const T* row, T* img, const Window2d& w) {
  using M = kernels::opmath_t<T>;
  const int64_t out_plane = w.out_h * w.out_w, out_w = w.out_w, sw = w.sw;
  const int64_t img_step = w.sh * w.width;
  for (int64_t i = 0; i < w.kh; ++i) {
    const Span rows = inside_span(w.height, i * w.dh - w.ph, w.sh, w.out_h);
    for (int64_t j = 0; j < w.kw; ++j, row += out_plane) {
      const Span cols_in = inside_span(w.width, j * w.dw - w.pw, w.sw, w.out_w);
      const int64_t left = cols_in.begin, count = cols_in.end - cols_in.begin;
      if (count == 0) continue;
      int64_t from = rows.begin * out_w + left;
      int64_t at = window_source(rows.begin, i, w.sh, w.ph, w.dh) * w.width +
                   window_source(left, j, w.sw, w.pw, w.dw);
      for (int64_t oh = rows.begin; oh < rows.end; ++oh, from += out_w, at += img_step) {
        const T* in = row + from;
        T* to = img + at;
        if (sw == 1) {
          for (int64_t c = 0; c < count; ++c)
            to[c] = static_cast<T>(static_cast<M>(to[c]) + static_cast<M>(in[c]));
        } else {
          for (int64_t c = 0; c < count; ++c)
            to[c * sw] = static_cast<T>(static_cast<M>(to[c * sw]) + static_cast<M>(in[c]));
        }
      }
    }
  }
}

void im2col_kernel(const Tensor& input, const Tensor& cols, const Window2d& w) {
  const int64_t planes = input.size(0) * input.size(1), plane = w.height * w.width;
  const int64_t rows = w.kh * w.kw * w.out_h * w.out_w;  // of cols, per plane
  kernels::dispatch_floating(input.scalar_type(), "im2col", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = input.data_ptr<T>();
    T* dst = cols.data_ptr<T>();
    parallel_for(planes, plane_grain(rows), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) im2col_plane(src + p * plane, dst + p * rows, w);
    });
  });
}

void col2im_kernel(const Tensor& cols, const Tensor& out, const Window2d& w) {
  const int64_t planes = out.size(0) * out.size(1), plane = w.height * w.width;
  const int64_t rows = w.kh * w.kw * w.out_h * w.out_w;
  kernels::dispatch_floating(out.scalar_type(), "col2im", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = cols.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    parallel_for(planes, plane_grain(rows), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) col2im_plane(src + p * rows, dst + p * plane, w);
    });
  });
}

// One plane per task: the plane's gradient is zeroed and filled while it is in cache (zeros and
// a scatter_add took four times as long as the pooling).
void max_pool2d_backward_kernel(const Tensor& grad, const Tensor& indices, const Tensor& grad_input,
                                const Window2d& w) {
  const int64_t planes = grad_input.size(0), plane = w.height * w.width;
  const int64_t out_plane = w.out_h * w.out_w;
  kernels::dispatch_floating(grad.scalar_type(), "max_pool2d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = kernels::opmath_t<T>;
    const T* g = grad.data_ptr<T>();
    const int64_t* idx = indices.data_ptr<int64_t>();
    T* dst = grad_input.data_ptr<T>();
    parallel_for(planes, plane_grain(plane + out_plane), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* gi = dst + p * plane;
        std::fill(gi, gi + plane, T(0));
        for (int64_t q = p * out_plane; q < (p + 1) * out_plane; ++q) {
          T& sum = gi[idx[q]];
          sum = static_cast<T>(static_cast<M>(sum) + static_cast<M>(g[q]));
        }
      }
    });
  });
}

#ifdef EMBER_HAVE_BLAS
// Note [Convolution per image] (ops/conv_gemm.h): the sizes, in BLAS's ints (the front half
// checked they fit), and the images split into one part per thread. Each part's column buffer
// is the thread's own, allocated in the parallel region: in memory the thread used last, W10's
// conv2 ran 20 % faster than in one block allocated before the region for all parts. (A failed
// allocation reaches the caller: parallel_for rethrows.)
struct PerImage {
  int64_t n, c, o, g, og, k, l, plane;
  int64_t parts;
  PerImage(const Tensor& input, const Tensor& weight, const Window2d& w, int64_t groups)
      : n(input.size(0)),
        c(input.size(1)),
        o(weight.size(0)),
        g(groups),
        og(o / groups),
        k(c / groups * w.kh * w.kw),
        l(w.out_h * w.out_w),
        plane(w.height * w.width),
        parts(std::max(1, threads_for(n, 1))) {}
  // The images of part p: the same split whatever thread runs it, so for a given thread count
  // the sums are reproducible.
  int64_t first(int64_t p) const { return n * p / parts; }
};

int blas_int(int64_t v) { return static_cast<int>(v); }

// The sum of v[0, n) in double, over independent partial sums: with one running sum each add
// waited for the one before, and W10's bias gradients (784 values a row) took a tenth of conv1's
// backward.
template <class T>
double sum_in_double(const T* v, int64_t n) {
  constexpr int kLanes = 8;
  double part[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
#pragma GCC unroll 8  // whole, so that the partial sums stay in registers
    for (int j = 0; j < kLanes; ++j) part[j] += static_cast<double>(v[i + j]);
  for (; i < n; ++i) part[i % kLanes] += static_cast<double>(v[i]);
  return std::accumulate(part, part + kLanes, 0.0);
}

// Note [Columns from a padded plane]
// im2col_plane handles each short row's padding and bounds, which cost more than the copy
// itself: W10's conv2 has 1500 rows of 10 per image. With stride 1 along the width, an image's
// columns instead come from each plane copied once into a zero-bordered plane (the padding built
// in), from which every column row is out_h copies of out_w elements at a fixed pitch, in whole
// 64-byte moves. A move may run past out_w: the next copy, written later, overwrites the overrun,
// and both buffers end in a move's worth of slack.
template <class T>
constexpr int64_t kMove = 64 / sizeof(T);

template <class T>
class ImageColumns {
 public:
  ImageColumns(const PerImage& s, const Window2d& w)
      : s_(s),
        w_(w),
        pitch_(w.width + 2 * w.pw),
        padded_rows_(w.height + 2 * w.ph),
        moves_((w.out_w + kMove<T> - 1) / kMove<T>),
        buffer_(static_cast<size_t>(s.g * s.k * s.l + kMove<T> +
                                    (from_padded() ? pitch_ * padded_rows_ + kMove<T> : 0))) {}

  // The buffer's [g * k, l] columns: of `image` after fill(image), or scratch until then.
  T* data() { return buffer_.data(); }

  // The columns of one image: its c planes' rows, which are the g groups' [k, l] matrices in
  // turn.
  void fill(const T* image) {
    const int64_t taps = w_.kh * w_.kw;
    for (int64_t ch = 0; ch < s_.c; ++ch) {
      T* rows = data() + ch * taps * s_.l;
      if (!from_padded()) {
        im2col_plane(image + ch * s_.plane, rows, w_);
        continue;
      }
      T* padded = data() + s_.g * s_.k * s_.l + kMove<T>;
      pad(image + ch * s_.plane, padded);
      for (int64_t i = 0; i < w_.kh; ++i)
        for (int64_t j = 0; j < w_.kw; ++j, rows += s_.l) {
          move_rows(padded + i * w_.dh * pitch_ + j * w_.dw, w_.sh * pitch_, w_.out_h, w_.out_w,
                    moves_, rows);
        }
    }
  }

 private:
  bool from_padded() const { return w_.sw == 1; }

  void pad(const T* plane, T* padded) const {
    std::fill(padded, padded + w_.ph * pitch_, T(0));
    for (int64_t h = 0; h < w_.height; ++h) {
      T* row = padded + (w_.ph + h) * pitch_;
      std::fill(row, row + w_.pw, T(0));
      std::copy(plane + h * w_.width, plane + (h + 1) * w_.width, row + w_.pw);
      std::fill(row + w_.pw + w_.width, row + pitch_, T(0));
    }
    std::fill(padded + (w_.ph + w_.height) * pitch_, padded + padded_rows_ * pitch_, T(0));
  }

  // count rows of out_w, `step` apart in from and packed in to, each as `moves` moves. The
  // sizes are values, not members: a move's bytes may alias anything, and members would be
  // loaded again after each.
  static void move_rows(const T* from, int64_t step, int64_t count, int64_t out_w, int64_t moves,
                        T* to) {
    constexpr size_t kBytes = sizeof(T) * kMove<T>;
    if (moves == 1) {
      for (int64_t r = 0; r < count; ++r) std::memcpy(to + r * out_w, from + r * step, kBytes);
      return;
    }
    for (int64_t r = 0; r < count; ++r)
      for (int64_t m = 0; m < moves; ++m)
        std::memcpy(to + r * out_w + m * kMove<T>, from + r * step + m * kMove<T>, kBytes);
  }

  const PerImage& s_;
  const Window2d& w_;
  int64_t pitch_, padded_rows_, moves_;
  std::vector<T> buffer_;
};

// Row-major products as column-major BLAS sees them (the transposes): out[og, l] = W[og, k] @
// cols[k, l] for each group, added to the bias written first (the image's output is in cache).
template <class T>
void conv2d_typed(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                  const Window2d& w, int64_t groups) {
  const PerImage s(input, weight, w, groups);
  const T* x = input.data_ptr<T>();
  const T* wt = weight.data_ptr<T>();
  const T* b = bias.defined() ? bias.data_ptr<T>() : nullptr;
  T* y = out.data_ptr<T>();
  parallel_for(s.parts, 1, [&](int64_t p0, int64_t p1) {
    ImageColumns<T> columns(s, w);
    T* cols = columns.data();
    for (int64_t img = s.first(p0); img < s.first(p1); ++img) {
      columns.fill(x + img * s.c * s.plane);
      T* image = y + img * s.o * s.l;
      if (b != nullptr)
        for (int64_t ch = 0; ch < s.o; ++ch)
          std::fill(image + ch * s.l, image + (ch + 1) * s.l, b[ch]);
      for (int64_t grp = 0; grp < s.g; ++grp)
        blas_gemm('N', 'N', blas_int(s.l), blas_int(s.og), blas_int(s.k), T(1),
                  cols + grp * s.k * s.l, blas_int(s.l), wt + grp * s.og * s.k, blas_int(s.k),
                  T(b != nullptr ? 1 : 0), image + grp * s.og * s.l, blas_int(s.l));
    }
  });
}

// grad_input: col2im of W^T[k, og] @ grad[og, l] per group. grad_weight: grad[og, l] @
// cols^T[l, k], and grad_bias: the sums of grad's rows (in double), both summed over the images:
// a part's images into sums of the part's own, and the parts added in order.
template <class T>
void conv2d_backward_typed(const Tensor& input, const Tensor& weight, const Tensor& grad,
                           const Tensor& grad_input, const Tensor& grad_weight,
                           const Tensor& grad_bias, const Window2d& w, int64_t groups) {
  const PerImage s(input, weight, w, groups);
  const T* x = input.data_ptr<T>();
  const T* wt = weight.data_ptr<T>();
  const T* gy = grad.data_ptr<T>();
  T* gx = grad_input.defined() ? grad_input.data_ptr<T>() : nullptr;
  const bool want_weight = grad_weight.defined(), want_bias = grad_bias.defined();
  const Tensor sums = want_weight ? zeros({s.parts, s.o * s.k}, weight.options()) : Tensor();
  const Tensor bias_sums =
      want_bias ? zeros({s.parts, s.o}, weight.options().dtype(kFloat64)) : Tensor();
  parallel_for(s.parts, 1, [&](int64_t p0, int64_t p1) {
    ImageColumns<T> columns(s, w);
    T* cols = columns.data();
    for (int64_t p = p0; p < p1; ++p) {
      T* sum = want_weight ? sums.data_ptr<T>() + p * s.o * s.k : nullptr;
      double* bias_sum = want_bias ? bias_sums.data_ptr<double>() + p * s.o : nullptr;
      for (int64_t img = s.first(p); img < s.first(p + 1); ++img) {
        const T* g = gy + img * s.o * s.l;
        if (bias_sum != nullptr)
          for (int64_t ch = 0; ch < s.o; ++ch) bias_sum[ch] += sum_in_double(g + ch * s.l, s.l);
        if (gx != nullptr) {
          for (int64_t grp = 0; grp < s.g; ++grp)
            blas_gemm('N', 'T', blas_int(s.l), blas_int(s.k), blas_int(s.og), T(1),
                      g + grp * s.og * s.l, blas_int(s.l), wt + grp * s.og * s.k, blas_int(s.k),
                      T(0), cols + grp * s.k * s.l, blas_int(s.l));
          T* image = gx + img * s.c * s.plane;
          for (int64_t ch = 0; ch < s.c; ++ch)
            col2im_plane(cols + ch * w.kh * w.kw * s.l, image + ch * s.plane, w);
        }
        if (sum != nullptr) {
          columns.fill(x + img * s.c * s.plane);
          for (int64_t grp = 0; grp < s.g; ++grp)
            blas_gemm('T', 'N', blas_int(s.k), blas_int(s.og), blas_int(s.l), T(1),
                      cols + grp * s.k * s.l, blas_int(s.l), g + grp * s.og * s.l, blas_int(s.l),
                      T(1), sum + grp * s.og * s.k, blas_int(s.k));
        }
      }
    }
  });
  // The parts' sums, added in order.
  if (want_weight) {
    T* gw = grad_weight.data_ptr<T>();
    const T* part = sums.data_ptr<T>();
    std::copy(part, part + s.o * s.k, gw);
    for (int64_t p = 1; p < s.parts; ++p)
      for (int64_t i = 0; i < s.o * s.k; ++i) gw[i] += part[p * s.o * s.k + i];
  }
  if (want_bias) {
    T* gb = grad_bias.data_ptr<T>();
    const double* part = bias_sums.data_ptr<double>();
    for (int64_t ch = 0; ch < s.o; ++ch) {
      double total = 0;
      for (int64_t p = 0; p < s.parts; ++p) total += part[p * s.o + ch];
      gb[ch] = static_cast<T>(total);
    }
  }
}

void conv2d_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                   const Window2d& w, int64_t groups) {
  if (input.scalar_type() == kFloat32)
    return conv2d_typed<float>(input, weight, bias, out, w, groups);
  conv2d_typed<double>(input, weight, bias, out, w, groups);
}

void conv2d_backward_kernel(const Tensor& input, const Tensor& weight, const Tensor& grad,
                            const Tensor& grad_input, const Tensor& grad_weight,
                            const Tensor& grad_bias, const Window2d& w, int64_t groups) {
  if (input.scalar_type() == kFloat32)
    return conv2d_backward_typed<float>(input, weight, grad, grad_input, grad_weight, grad_bias, w,
                                        groups);
  conv2d_backward_typed<double>(input, weight, grad, grad_input, grad_weight, grad_bias, w, groups);
}
#endif

// Outputs per chunk of max_pool2d's interior loop.
constexpr int64_t kPoolChunk = 64;

void max_pool2d_kernel(const Tensor& input, const Tensor& values, const Tensor& indices,
                       const Window2d& w) {
  const int64_t planes = input.size(0), plane = w.height * w.width;
  const int64_t out_plane = w.out_h * w.out_w;
  kernels::dispatch_floating(input.scalar_type(), "max_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = kernels::opmath_t<T>;
    using TapNumber = std::conditional_t<sizeof(M) == 8, int64_t, int32_t>;
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
    // The first maximum, or the last NaN, as PyTorch's `(val > maxval) || isnan(val)`. `|`, not
    // `||`, and pick()'s selects: the interior loop below has no branch on the data, so it
    // vectorises. On random inputs half the comparisons go the other way, and as branches their
    // mispredictions made W10's pooling 13 to 19 % of its step.
    auto better = [](M v, M best) { return (v > best) | (v != v); };
    // Tap k's position from tap 0's, in the window's row-major order.
    std::vector<int64_t> offset(static_cast<size_t>(w.kh * w.kw));
    for (int64_t k = 0; k < w.kh * w.kw; ++k)
      offset[k] = k / w.kw * w.dh * w.width + k % w.kw * w.dw;
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
          // The interior of the row, a chunk of outputs at a time and tap by tap across the
          // chunk (each output still sees its taps in PyTorch's order): no output's result waits
          // on its neighbour's. The chunk's maxima and their tap numbers (integers as wide as
          // M, so that both selects vectorise alike) are locals that no store can alias; the
          // winner's value is selected, not read again at its index (a gather).
          const int64_t c0 = cols.begin, c1 = cols.end, sw = w.sw, taps = w.kh * w.kw;
          const int64_t first = window_source(oh, 0, w.sh, w.ph, w.dh) * w.width +
                                window_source(0, 0, w.sw, w.pw, w.dw);
          for (int64_t c = c0; c < c1; c += kPoolChunk) {
            const int64_t n = std::min(kPoolChunk, c1 - c);
            const T* at = in + (first + c * sw);  // tap 0 of output c
            M best[kPoolChunk];
            TapNumber best_tap[kPoolChunk];
            for (int64_t o = 0; o < n; ++o) {
              best[o] = static_cast<M>(at[o * sw]);
              best_tap[o] = 0;
            }
            for (int64_t k = 1; k < taps; ++k) {
              const T* tap = at + offset[k];
              const auto number = static_cast<TapNumber>(k);
              for (int64_t o = 0; o < n; ++o) {
                const M v = static_cast<M>(tap[o * sw]);
                const bool taken = better(v, best[o]);
                best[o] = pick(taken, best[o], v);
                best_tap[o] = pick(taken, best_tap[o], number);
              }
            }
            for (int64_t o = 0; o < n; ++o) {
              v_row[c + o] = static_cast<T>(best[o]);
              i_row[c + o] = first + (c + o) * sw + offset[static_cast<int64_t>(best_tap[o])];
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
  max_pool2d_backward_stub.set(DeviceType::CPU, &max_pool2d_backward_kernel);
#ifdef EMBER_HAVE_BLAS
  conv2d_stub.set(DeviceType::CPU, &conv2d_kernel);
  conv2d_backward_stub.set(DeviceType::CPU, &conv2d_backward_kernel);
#endif
}

}  // namespace ember::cpu
