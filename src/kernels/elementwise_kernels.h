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
#include "kernels/functors.h"
#include "kernels/elementwise_stubs.h"
#include "kernels/tensor_iter.h"

namespace ember::kernels {

// Note [Partial kernel copies]
// A Loop may compile the kernels for some dtypes only, declaring `template <class T> static
// constexpr bool kServes` and a `Fallback` Loop whose kernels take the other dtypes: the CPU's
// vector copies serve float32 and float64 (Note [CPU capabilities]) and hand the rest to the
// baseline copy, compiled in another file. Without kServes a Loop serves every dtype.
template <class Loop, class T>
constexpr bool serves() {
  if constexpr (requires { Loop::template kServes<T>; }) return Loop::template kServes<T>;
  else return true;
}
// Loop::Fallback, named through T so that it is looked up only where T is not served.
template <class Loop, class T>
using fallback_t = typename std::enable_if_t<!serves<Loop, T>(), Loop>::Fallback;

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
    case BinaryDtypes::TrueDivision: return is_float;
  }
  return false;
}

constexpr bool returns_bool(UnaryDtypes rule) { return rule == UnaryDtypes::ToBool; }
constexpr bool returns_bool(BinaryDtypes rule) { return rule == BinaryDtypes::Compare; }

// One row's kernel for one dtype; a binary functor takes the row's alpha.
template <class Loop, class T, template <class> class F, auto rule>
void run_row(const char* name, TensorIter& it, Scalar alpha) {
  using M = opmath_t<T>;
  if constexpr (computes<T>(rule)) {
    using Out = std::conditional_t<returns_bool(rule), bool, T>;
    if constexpr (std::is_invocable_v<F<M>, M>) Loop::template run<Out, T>(name, it, F<M>{});
    else Loop::template run<Out, T, T>(name, it, F<M>{alpha.to<M>()});
  } else {
    EMBER_INTERNAL_ASSERT(false, "[", name, "] got a dtype its dtype rule does not compute");
  }
}

template <class Loop>
void unary_kernel(TensorIter& it, UnaryOp op) {
  dispatch_dtype(it.dtypes[1], "unary op", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!serves<Loop, T>()) {
      unary_kernel<fallback_t<Loop, T>>(it, op);
    } else {
      switch (op) {
#define EMBER_UNARY_CASE(Op, name, dtypes, ...) \
  case UnaryOp::Op: return run_row<Loop, T, Op, UnaryDtypes::dtypes>(#name, it, Scalar());
        EMBER_UNARY_OPS(EMBER_UNARY_CASE)
#undef EMBER_UNARY_CASE
      }
    }
  });
}

template <class Loop>
void binary_kernel(TensorIter& it, BinaryOp op, Scalar alpha) {
  dispatch_dtype(it.dtypes[1], "binary op", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!serves<Loop, T>()) {
      binary_kernel<fallback_t<Loop, T>>(it, op, alpha);
    } else {
      switch (op) {
#define EMBER_BINARY_CASE(Op, name, dtypes, ...) \
  case BinaryOp::Op: return run_row<Loop, T, Op, BinaryDtypes::dtypes>(#name, it, alpha);
        EMBER_BINARY_OPS(EMBER_BINARY_CASE)
#undef EMBER_BINARY_CASE
      }
    }
  });
}

template <class Loop>
void clamp_kernel(TensorIter& it, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  dispatch_dtype(it.dtypes[1], "clamp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    if constexpr (!serves<Loop, T>()) {
      clamp_kernel<fallback_t<Loop, T>>(it, lo, hi);
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
    if constexpr (!serves<Loop, T>()) where_kernel<fallback_t<Loop, T>>(it);
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
