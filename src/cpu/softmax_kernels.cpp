// CPU kernels of softmax and log_softmax, a row at a time with the reduce loop's folds (Note
// [Reduction speed and accuracy] in cpu/reduce_loop.h).
#include <cmath>
#include <cstdint>

#include "cpu/column_blocks.h"
#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "cpu/reduce_loop.h"
#include "cpu/vector_copy.h"  // compiled once per CPU capability
#include "kernels/dtype_dispatch.h"
#include "kernels/lines.h"
#include "kernels/reduce_functors.h"
#include "kernels/reduce_stubs.h"

namespace ember::cpu::EMBER_CPU_CAPABILITY {
namespace {

using namespace kernels;

// One softmax row (the reduced dim innermost): max, exp and sum in one pass over the input, then
// one pass over the output. kLog is a template parameter so that no branch sits in the loops
// (a conditional store keeps them scalar).
template <bool kLog, class T>
[[gnu::always_inline]] inline void softmax_row(const T* x, T* y, int64_t n) {
  using M = opmath_t<T>;
  constexpr int kLanes = lanes_of<M>;
  const M max = reduce_contiguous(ExtremumOp<M, true>{}, x, n, 0);
  M sums[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) {
      M e = vector_exp(static_cast<M>(x[i + j]) - max);
      if constexpr (!kLog) y[i + j] = static_cast<T>(e);
      sums[j] += e;
    }
  for (; i < n; ++i) {
    M e = vector_exp(static_cast<M>(x[i]) - max);
    if constexpr (!kLog) y[i] = static_cast<T>(e);
    sums[0] += e;
  }
  M sum = reduce_contiguous(SumOp<M>{}, sums, kLanes, 0);
  if constexpr (kLog) {  // (x - max) - log(sum): subtracting max first keeps large x precise
    const M log_sum = std::log(sum);
    for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>((static_cast<M>(x[k]) - max) - log_sum);
  } else {
    const M scale = M(1) / sum;
    for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>(static_cast<M>(y[k]) * scale);
  }
}

// Softmax over a dim with inner > 1: the same steps on a block of columns at a time.
template <bool kLog, class T>
void softmax_columns(const T* x, T* y, const Lines& lines) {
  using M = opmath_t<T>;
  const ExtremumOp<M, true> max_op;
  for_each_column_block(lines, [&](int64_t base, int64_t width) {
    M max[kColumnBlock], sum[kColumnBlock];
    for (int64_t k = 0; k < width; ++k) {
      max[k] = max_op.identity();
      sum[k] = 0;
    }
    for (int64_t i = 0; i < lines.n; ++i)
      for (int64_t k = 0; k < width; ++k)
        max[k] = max_op.combine(max[k], static_cast<M>(x[base + i * lines.inner + k]));
    for (int64_t i = 0; i < lines.n; ++i)
      for (int64_t k = 0; k < width; ++k) {
        int64_t at = base + i * lines.inner + k;
        M e = vector_exp(static_cast<M>(x[at]) - max[k]);
        if constexpr (!kLog) y[at] = static_cast<T>(e);
        sum[k] += e;
      }
    for (int64_t k = 0; k < width; ++k) sum[k] = kLog ? std::log(sum[k]) : M(1) / sum[k];
    for (int64_t i = 0; i < lines.n; ++i)
      for (int64_t k = 0; k < width; ++k) {
        int64_t at = base + i * lines.inner + k;
        if constexpr (kLog) y[at] = static_cast<T>((static_cast<M>(x[at]) - max[k]) - sum[k]);
        else y[at] = static_cast<T>(static_cast<M>(y[at]) * sum[k]);
      }
  });
}

template <bool kLog, class T>
void softmax_rows(const T* x, T* y, int64_t n, int64_t begin, int64_t end) {
  for (int64_t row = begin; row < end; ++row) softmax_row<kLog>(x + row * n, y + row * n, n);
}

template <bool kLog, class T>
void softmax_typed(const T* x, T* y, const Lines& lines) {
  if (lines.inner > 1) return softmax_columns<kLog>(x, y, lines);
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(lines.n, 1));
  parallel_for(lines.outer, grain,
               [&](int64_t b, int64_t e) { softmax_rows<kLog>(x, y, lines.n, b, e); });
}

// Softmax of a whole tensor whose element type is T.
template <class T>
void softmax_tensor(const Tensor& in, const Tensor& out, int64_t dim, bool log) {
  const Lines lines(in.sizes().data(), in.dim(), dim);
  if (in.numel() == 0) return;
  const T* x = static_cast<const T*>(in.data_ptr());
  T* y = static_cast<T*>(out.data_ptr());
  if (log) softmax_typed<true>(x, y, lines);
  else softmax_typed<false>(x, y, lines);
}

}  // namespace

void softmax_kernel(const Tensor& in, const Tensor& out, int64_t dim, bool log) {
#ifdef EMBER_CPU_VECTOR_COPY
  if (in.scalar_type() == kFloat32) return softmax_tensor<float>(in, out, dim, log);
  if (in.scalar_type() == kFloat64) return softmax_tensor<double>(in, out, dim, log);
  baseline::softmax_kernel(in, out, dim, log);
#else
  dispatch_floating(in.scalar_type(), "softmax", [&](auto tag) {
    softmax_tensor<typename decltype(tag)::type>(in, out, dim, log);
  });
#endif
}

void register_softmax_kernels() { softmax_stub.set(DeviceType::CPU, &softmax_kernel); }

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY
