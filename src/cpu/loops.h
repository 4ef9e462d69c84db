// The CPU elementwise loop: walks a TensorIter in 1-D strips (threaded above the grain size) and
// applies a functor from kernels/functors.h; contiguous strips compile to vectorised loops.
#pragma once

#include <cstdint>
#include <tuple>
#include <utility>

#include "cpu/parallel.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/tensor_iter.h"

namespace ember::cpu {

using kernels::TensorIter;

// Calls strip(ptrs, inner_strides, n) for consecutive runs along the innermost dim, covering
// the linear range [begin, end) of the iterator.
template <class Strip>
void for_each_strip_range(const TensorIter& it, int64_t begin, int64_t end, const Strip& strip) {
  const int nt = it.ntensors;
  int64_t idx[kernels::kMaxDims];
  int64_t rem = begin;
  for (int d = 0; d < it.ndim; ++d) {
    idx[d] = rem % it.shape[d];
    rem /= it.shape[d];
  }
  int64_t inner[kernels::kMaxOperands];
  for (int k = 0; k < nt; ++k) inner[k] = it.strides[k][0];
  char* ptrs[kernels::kMaxOperands];
  while (begin < end) {
    for (int k = 0; k < nt; ++k) {
      char* p = it.data[k];
      for (int d = 0; d < it.ndim; ++d) p += idx[d] * it.strides[k][d];
      ptrs[k] = p;
    }
    int64_t n = std::min(it.shape[0] - idx[0], end - begin);
    strip(ptrs, inner, n);
    begin += n;
    idx[0] += n;
    for (int d = 0; d + 1 < it.ndim && idx[d] == it.shape[d]; ++d) {
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
}

template <class Strip>
void for_each_strip(const TensorIter& it, const Strip& strip) {
  if (it.numel == 0) return;
  if (it.ndim == 1 && it.numel < kGrainSize) {  // one strip: no index bookkeeping
    char* ptrs[kernels::kMaxOperands];
    int64_t inner[kernels::kMaxOperands];
    for (int k = 0; k < it.ntensors; ++k) {
      ptrs[k] = it.data[k];
      inner[k] = it.strides[k][0];
    }
    strip(ptrs, inner, it.numel);
    return;
  }
  if (it.numel < kGrainSize) {
    for_each_strip_range(it, 0, it.numel, strip);
    return;
  }
  parallel_for(it.numel, kGrainSize,
               [&](int64_t b, int64_t e) { for_each_strip_range(it, b, e, strip); });
}

template <class T>
inline kernels::opmath_t<T> load(const char* p) {
  return static_cast<kernels::opmath_t<T>>(*reinterpret_cast<const T*>(p));
}

namespace detail {

template <class Out, class... In, class F, size_t... I>
inline void apply_strip(char* const* p, const int64_t* s, int64_t n, const F& f,
                        std::index_sequence<I...>) {
  using kernels::convert;
  Out* out = reinterpret_cast<Out*>(p[0]);
  const bool contiguous =
      s[0] == static_cast<int64_t>(sizeof(Out)) && ((s[I + 1] == static_cast<int64_t>(sizeof(In))) && ...);
  if (contiguous) {
    std::tuple<const In*...> in{reinterpret_cast<const In*>(p[I + 1])...};
    for (int64_t i = 0; i < n; ++i)
      out[i] = convert<Out>(f(static_cast<kernels::opmath_t<In>>(std::get<I>(in)[i])...));
    return;
  }
  if constexpr (sizeof...(In) == 2) {
    // One operand broadcast (x + 2.5, x * row): hoist it so the loop still vectorises.
    using A = std::tuple_element_t<0, std::tuple<In...>>;
    using B = std::tuple_element_t<1, std::tuple<In...>>;
    if (s[0] == static_cast<int64_t>(sizeof(Out))) {
      if (s[2] == 0 && s[1] == static_cast<int64_t>(sizeof(A))) {
        const A* a = reinterpret_cast<const A*>(p[1]);
        const auto b = load<B>(p[2]);
        for (int64_t i = 0; i < n; ++i)
          out[i] = convert<Out>(f(static_cast<kernels::opmath_t<A>>(a[i]), b));
        return;
      }
      if (s[1] == 0 && s[2] == static_cast<int64_t>(sizeof(B))) {
        const auto a = load<A>(p[1]);
        const B* b = reinterpret_cast<const B*>(p[2]);
        for (int64_t i = 0; i < n; ++i)
          out[i] = convert<Out>(f(a, static_cast<kernels::opmath_t<B>>(b[i])));
        return;
      }
    }
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<Out*>(p[0] + i * s[0]) = convert<Out>(f(load<In>(p[I + 1] + i * s[I + 1])...));
}

}  // namespace detail

// Applies f to every element: out = f(in...). Out and In are storage types; f sees opmath types.
template <class Out, class... In, class F>
void cpu_kernel(const TensorIter& it, const F& f) {
  for_each_strip(it, [&f](char* const* p, const int64_t* s, int64_t n) {
    detail::apply_strip<Out, In...>(p, s, n, f, std::index_sequence_for<In...>{});
  });
}

// cpu_kernel as the Loop policy of kernels/elementwise_kernels.h (the op name is for errors,
// which the CPU loop cannot raise).
struct CpuLoop {
  template <class Out, class... In, class F>
  static void run(const char* /*op*/, const TensorIter& it, const F& f) {
    cpu_kernel<Out, In...>(it, f);
  }
};

}  // namespace ember::cpu
