// The elementwise kernels of every backend, written once: for each op of the tables
// (ops/unary_table.h, ops/binary_table.h), clamp and where, which functor of kernels/functors.h
// serves which dtype, and which storage types it reads and writes. A backend supplies only its
// loop, as a policy type with
//   template <class Out, class... In, class F>
//   static void run(const char* op, TensorIter&, const F&);
// and registers these kernels with it through register_*_kernels below (cpu/*_kernels.cpp,
// cuda/*_kernels.cu), so the CPU and CUDA kernels cannot drift apart in what they accept or
// compute.
#pragma once

#include <optional>
#include <type_traits>

#include "core/check.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/functors.h"
#include "kernels/scalar_cast.h"
#include "kernels/tensor_iter.h"

namespace ember::kernels {

// Whether a row's math is plain arithmetic (or a selection), with no libm call and no bool
// result: the rows that gain from wider vector registers (Note [CPU capabilities]).
constexpr bool plain_arithmetic(UnaryDtypes rule) {
  switch (rule) {
    case UnaryDtypes::Any:
    case UnaryDtypes::NoBool:
    case UnaryDtypes::Negation:
    case UnaryDtypes::BoolToLong:
    case UnaryDtypes::Bitwise: return true;
    case UnaryDtypes::Float:
    case UnaryDtypes::FloatOnly:
    case UnaryDtypes::ToBool: return false;
  }
  return false;
}
constexpr bool plain_arithmetic(BinaryDtypes rule) {
  switch (rule) {
    case BinaryDtypes::Promote:
    case BinaryDtypes::Addition:
    case BinaryDtypes::Subtraction:
    case BinaryDtypes::TrueDivision:
    case BinaryDtypes::Bitwise:
    case BinaryDtypes::Shift: return true;
    case BinaryDtypes::NoBool:           // pow
    case BinaryDtypes::IntegerDivision:  // fmod and floor for floats
    case BinaryDtypes::Float:            // atan2
    case BinaryDtypes::Compare: return false;
  }
  return false;
}

// Note [Partial kernel copies]
// A Loop may compile only some kernels, declaring `template <class T, bool kArithmetic> static
// constexpr bool kServes` (kArithmetic: plain_arithmetic of the row; true for clamp and where)
// and a `Fallback` Loop whose kernels take the rest: the CPU's vector copies serve the plain
// arithmetic of float32 and float64 and hand everything else to the baseline copy, compiled in
// another file, which keeps most of the compile time out of each copy. Without kServes a Loop
// serves every kernel.
template <class Loop, class T, bool kArithmetic>
constexpr bool serves() {
  if constexpr (requires { Loop::template kServes<T, kArithmetic>; })
    return Loop::template kServes<T, kArithmetic>;
  else return true;
}
// Loop::Fallback, named through T so that it is looked up only where T is not served.
template <class Loop, class T, bool kArithmetic>
using fallback_t = typename std::enable_if_t<!serves<Loop, T, kArithmetic>(), Loop>::Fallback;

// Whether a dtype rule lets element type T reach the kernel: the front halves refuse or convert
// every other dtype before they dispatch.
template <class T>
constexpr bool computes(UnaryDtypes rule) {
  constexpr bool is_bool = std::is_same_v<T, bool>, is_float = kIsFloat<opmath_t<T>>;
  switch (rule) {
    case UnaryDtypes::Any:
    case UnaryDtypes::ToBool: return true;
    case UnaryDtypes::NoBool:
    case UnaryDtypes::Negation:
    case UnaryDtypes::BoolToLong: return !is_bool;
    case UnaryDtypes::Float:
    case UnaryDtypes::FloatOnly: return is_float;
    case UnaryDtypes::Bitwise: return !is_float;
  }
  return false;
}
template <class T>
constexpr bool computes(BinaryDtypes rule) {
  constexpr bool is_bool = std::is_same_v<T, bool>, is_float = kIsFloat<opmath_t<T>>;
  switch (rule) {
    case BinaryDtypes::Promote:
    case BinaryDtypes::Addition:
    case BinaryDtypes::Compare: return true;
    case BinaryDtypes::Subtraction:
    case BinaryDtypes::NoBool:
    case BinaryDtypes::IntegerDivision: return !is_bool;
    case BinaryDtypes::TrueDivision:
    case BinaryDtypes::Float: return is_float;
    case BinaryDtypes::Bitwise: return !is_float;
    case BinaryDtypes::Shift: return !is_float && !is_bool;
  }
  return false;
}

constexpr bool returns_bool(UnaryDtypes rule) { return rule == UnaryDtypes::ToBool; }
constexpr bool returns_bool(BinaryDtypes rule) { return rule == BinaryDtypes::Compare; }

// One row's kernel for one dtype; a binary functor takes the row's alpha, a parametric unary one
// its parameters in the compute type (as PyTorch converts its Scalar options).
template <class Loop, class T, template <class> class F, auto rule>
void run_row(const char* name, TensorIter& it, Scalar alpha, const UnaryParams& params) {
  using M = opmath_t<T>;
  if constexpr (computes<T>(rule)) {
    using Out = std::conditional_t<returns_bool(rule), bool, T>;
    if constexpr (std::is_invocable_v<F<M>, M> && std::is_empty_v<F<M>>)
      Loop::template run<Out, T>(name, it, F<M>{});
    else if constexpr (std::is_invocable_v<F<M>, M>)
      Loop::template run<Out, T>(
          name, it, F<M>{convert<M>(params.a), convert<M>(params.b), convert<M>(params.c)});
    else Loop::template run<Out, T, T>(name, it, F<M>{kernels::scalar_cast<M>(alpha)});
  } else {
    EMBER_INTERNAL_ASSERT(false, "[", name, "] got a dtype its dtype rule does not compute");
  }
}

template <class Loop>
void unary_kernel(TensorIter& it, UnaryOp op, const UnaryParams& params) {
  dispatch_dtype(it.dtypes[1], "unary op", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define EMBER_UNARY_CASE(Op, name, dtypes, ...)                                      \
  case UnaryOp::Op:                                                                  \
    if constexpr (constexpr bool kArith = plain_arithmetic(UnaryDtypes::dtypes);     \
                  serves<Loop, T, kArith>())                                         \
      return run_row<Loop, T, Op, UnaryDtypes::dtypes>(#name, it, Scalar(), params); \
    else return unary_kernel<fallback_t<Loop, T, kArith>>(it, op, params);
      EMBER_EVERY_UNARY_OP(EMBER_UNARY_CASE)
#undef EMBER_UNARY_CASE
    }
  });
}

template <class Loop>
void binary_kernel(TensorIter& it, BinaryOp op, Scalar alpha) {
  dispatch_dtype(it.dtypes[1], "binary op", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define EMBER_BINARY_CASE(Op, name, dtypes, ...)                                  \
  case BinaryOp::Op:                                                              \
    if constexpr (constexpr bool kArith = plain_arithmetic(BinaryDtypes::dtypes); \
                  serves<Loop, T, kArith>())                                      \
      return run_row<Loop, T, Op, BinaryDtypes::dtypes>(#name, it, alpha, {});    \
    else return binary_kernel<fallback_t<Loop, T, kArith>>(it, op, alpha);
      EMBER_BINARY_OPS(EMBER_BINARY_CASE)
#undef EMBER_BINARY_CASE
    }
  });
}

template <class Loop>
void clamp_kernel(TensorIter& it, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  dispatch_dtype(it.dtypes[1], "clamp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    if constexpr (!serves<Loop, T, true>()) {
      clamp_kernel<fallback_t<Loop, T, true>>(it, lo, hi);
    } else {
      Clamp<M> f{lo ? lo->to<M>() : M{}, hi ? hi->to<M>() : M{}, lo.has_value(), hi.has_value()};
      Loop::template run<T, T>("clamp", it, f);
    }
  });
}

template <class Loop>
void where_kernel(TensorIter& it) {
  dispatch_dtype(it.dtypes[0], "where", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!serves<Loop, T, true>()) where_kernel<fallback_t<Loop, T, true>>(it);
    else Loop::template run<T, bool, T, T>("where", it, Where<opmath_t<T>>{});
  });
}

// Registers the kernels above for one device type, in two halves so that a backend can compile
// them in two files (in parallel: the CUDA ones take minutes each).
template <class Loop>
void register_binary_kernels(DeviceType type) {
  binary_stub.set(type, &binary_kernel<Loop>);
}

template <class Loop>
void register_unary_clamp_where_kernels(DeviceType type) {
  unary_stub.set(type, &unary_kernel<Loop>);
  clamp_stub.set(type, &clamp_kernel<Loop>);
  where_stub.set(type, &where_kernel<Loop>);
}

}  // namespace ember::kernels
