// The CPU elementwise loop: walks a TensorIter in 1-D strips (threaded above the grain size) and
// applies a functor from kernels/functors.h; contiguous strips compile to vectorised loops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cpu/parallel.h"
#include "cpu/vector_copy.h"  // Note [Loops per CPU capability]
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/iter_offsets.h"
#include "kernels/tensor_iter.h"

// Note [Loops per CPU capability]
// The loops are templates, instantiated by kernel files that are compiled once per CPU capability
// (Note [CPU capabilities]), so each copy's instantiations must be symbols of its own: in one
// namespace the linker kept a single for_each_strip<cpu_kernel<double, double, double, Div>> for
// all copies, so the baseline kernels ran AVX2 instructions (illegal on a CPU without them) and
// the AVX-512 copy ran the AVX2 loop. Hence the namespace below; files compiled only once (copy,
// shape) call the baseline loops through the using-directive at the end.
namespace ember::cpu::EMBER_CPU_CAPABILITY {

using kernels::TensorIter;

// Calls strip(ptrs, inner_strides, n) for consecutive runs along the innermost dim, covering
// the elements [begin, end) of an iterator of N operands (Note [One index decomposition]).
template <int N, class Strip>
void for_each_strip_range(const TensorIter& it, int64_t begin, int64_t end, const Strip& strip) {
  const auto calc = kernels::make_offset_calculator<N, int64_t>(it);
  kernels::OffsetCursor<N> cursor(calc, begin);
  char* ptrs[N];
  while (begin < end) {
    for (int k = 0; k < N; ++k) ptrs[k] = it.data[k] + cursor.offset(k);
    const int64_t n = std::min(cursor.run_left(), end - begin);
    strip(ptrs, calc.strides[0], n);
    begin += n;
    cursor.advance(n);
  }
}

template <int N, class Strip>
void for_each_strip(const TensorIter& it, const Strip& strip) {
  if (it.numel == 0) return;
  if (it.ndim == 1 && it.numel < kGrainSize) {  // one strip: no index bookkeeping
    char* ptrs[N];
    int64_t inner[N];
    for (int k = 0; k < N; ++k) {
      ptrs[k] = it.data[k];
      inner[k] = it.strides[k][0];
    }
    strip(ptrs, inner, it.numel);
    return;
  }
  if (it.numel < kGrainSize) {
    for_each_strip_range<N>(it, 0, it.numel, strip);
    return;
  }
  parallel_for(it.numel, kGrainSize,
               [&](int64_t b, int64_t e) { for_each_strip_range<N>(it, b, e, strip); });
}

// The type a T element is read as: bool through its byte (0 or 1 in every ember tensor), since
// GCC vectorises no loop that reads bool itself (a where(mask, a, b) ran scalar, branching on
// every element).
template <class T>
using read_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

template <class T>
inline kernels::opmath_t<T> load(const char* p) {
  return static_cast<kernels::opmath_t<T>>(*reinterpret_cast<const read_t<T>*>(p));
}

namespace internal {  // not ember::detail: the using-directive below would hide that

// Operand I of element i: the value read once when that operand is broadcast, else its element.
template <bool kHeld, class T, class Held>
inline kernels::opmath_t<T> operand(const Held& held, const read_t<T>* in, int64_t i) {
  if constexpr (kHeld) return held;
  else return static_cast<kernels::opmath_t<T>>(in[i]);
}

// The strip when operand J is broadcast (stride 0) and the output and every other operand are
// contiguous (x + 2.5, x * row, where(mask, x, 0)): J is read once, so the loop still vectorises.
template <size_t J, class Out, class... In, class F, size_t... I>
inline bool apply_broadcast_strip(char* const* p, const int64_t* s, int64_t n, const F& f,
                                  std::index_sequence<I...>) {
  if (s[J + 1] != 0 || !((I == J || s[I + 1] == static_cast<int64_t>(sizeof(In))) && ...))
    return false;
  const auto held = load<std::tuple_element_t<J, std::tuple<In...>>>(p[J + 1]);
  const std::tuple<const read_t<In>*...> in{reinterpret_cast<const read_t<In>*>(p[I + 1])...};
  Out* out = reinterpret_cast<Out*>(p[0]);
  for (int64_t i = 0; i < n; ++i)
    out[i] = kernels::convert<Out>(f(operand<I == J, In>(held, std::get<I>(in), i)...));
  return true;
}

template <class Out, class... In, class F, size_t... I>
inline void apply_strip(char* const* p, const int64_t* s, int64_t n, const F& f,
                        std::index_sequence<I...> seq) {
  using kernels::convert;
  if (s[0] == static_cast<int64_t>(sizeof(Out))) {
    if (((s[I + 1] == static_cast<int64_t>(sizeof(In))) && ...)) {
      Out* out = reinterpret_cast<Out*>(p[0]);
      const std::tuple<const read_t<In>*...> in{reinterpret_cast<const read_t<In>*>(p[I + 1])...};
      for (int64_t i = 0; i < n; ++i)
        out[i] = convert<Out>(f(static_cast<kernels::opmath_t<In>>(std::get<I>(in)[i])...));
      return;
    }
    if constexpr (sizeof...(In) >= 2)
      if ((apply_broadcast_strip<I, Out, In...>(p, s, n, f, seq) || ...)) return;
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<Out*>(p[0] + i * s[0]) =
        convert<Out>(f(load<In>(p[I + 1] + i * s[I + 1])...));
}

}  // namespace internal

// Applies f to every element: out = f(in...). Out and In are storage types; f sees opmath types.
template <class Out, class... In, class F>
void cpu_kernel(const TensorIter& it, const F& f) {
  for_each_strip<1 + sizeof...(In)>(it, [&f](char* const* p, const int64_t* s, int64_t n) {
    internal::apply_strip<Out, In...>(p, s, n, f, std::index_sequence_for<In...>{});
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

}  // namespace ember::cpu::EMBER_CPU_CAPABILITY

namespace ember::cpu {
using namespace EMBER_CPU_CAPABILITY;  // NOLINT: Note [Loops per CPU capability]
}  // namespace ember::cpu
