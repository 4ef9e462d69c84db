// The elementwise kernels of every backend, written once: which functor of kernels/functors.h
// serves each op and dtype, and which storage types it reads and writes. A backend supplies only
// its loop, as a policy type with
//   template <class Out, class... In, class F> static void run(const char* op, TensorIter&, const F&);
// (cpu/{binary,unary}_kernels.cpp and cuda/{binary,unary}_kernels.cu register these with their
// Loop), so the CPU and CUDA kernels cannot drift apart in what they accept or compute.
#pragma once

#include <optional>
#include <type_traits>

#include "core/check.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/stubs.h"
#include "kernels/tensor_iter.h"

namespace ember::kernels {

// Each family's kernel for one dtype T (the *_typed functions) and for any dtype (the *_kernel
// functions): CPU vector copies serve float32 and float64 through the first.
template <class Loop, class T>
void binary_typed(TensorIter& it, BinaryOp op, Scalar alpha) {
  using M = opmath_t<T>;
  switch (op) {
    case BinaryOp::Add: return Loop::template run<T, T, T>("add", it, AddAlpha<M>{alpha.to<M>()});
    case BinaryOp::Mul: return Loop::template run<T, T, T>("mul", it, Mul<M>{});
    case BinaryOp::Div:
      if constexpr (kIsFloat<M>) return Loop::template run<T, T, T>("div", it, Div<M>{});
      break;
    case BinaryOp::FloorDivide:
      if constexpr (!std::is_same_v<M, bool>)
        return Loop::template run<T, T, T>("floor_divide", it, FloorDivide<M>{});
      break;
    case BinaryOp::Remainder:
      if constexpr (!std::is_same_v<M, bool>)
        return Loop::template run<T, T, T>("remainder", it, Remainder<M>{});
      break;
    case BinaryOp::Pow:
      if constexpr (!std::is_same_v<M, bool>)
        return Loop::template run<T, T, T>("pow", it, Pow<M>{});
      break;
    case BinaryOp::Maximum: return Loop::template run<T, T, T>("maximum", it, Maximum<M>{});
    case BinaryOp::Minimum: return Loop::template run<T, T, T>("minimum", it, Minimum<M>{});
  }
  EMBER_INTERNAL_ASSERT(false, "binary op without a kernel for this dtype");
}

template <class Loop>
void binary_kernel(TensorIter& it, BinaryOp op, Scalar alpha) {
  dispatch_dtype(it.dtypes[1], "binary op", [&](auto tag) {
    binary_typed<Loop, typename decltype(tag)::type>(it, op, alpha);
  });
}

template <class Loop, class T, CompareOp op>
void compare_typed(TensorIter& it) {
  Loop::template run<bool, T, T>("comparison", it, Compare<opmath_t<T>, op>{});
}

template <class Loop>
void compare_kernel(TensorIter& it, CompareOp op) {
  dispatch_dtype(it.dtypes[1], "comparison", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
      case CompareOp::Eq: return compare_typed<Loop, T, CompareOp::Eq>(it);
      case CompareOp::Ne: return compare_typed<Loop, T, CompareOp::Ne>(it);
      case CompareOp::Lt: return compare_typed<Loop, T, CompareOp::Lt>(it);
      case CompareOp::Le: return compare_typed<Loop, T, CompareOp::Le>(it);
      case CompareOp::Gt: return compare_typed<Loop, T, CompareOp::Gt>(it);
      case CompareOp::Ge: return compare_typed<Loop, T, CompareOp::Ge>(it);
      case CompareOp::LogicalAnd: return compare_typed<Loop, T, CompareOp::LogicalAnd>(it);
      case CompareOp::LogicalOr: return compare_typed<Loop, T, CompareOp::LogicalOr>(it);
      case CompareOp::LogicalXor: return compare_typed<Loop, T, CompareOp::LogicalXor>(it);
    }
  });
}

template <class Loop, class T, UnaryOp op>
void unary_op(TensorIter& it) {
  using Out = std::conditional_t<op == UnaryOp::LogicalNot, bool, T>;
  Loop::template run<Out, T>("unary op", it, Unary<opmath_t<T>, op>{});
}

// The unary ops that are plain arithmetic and keep integer dtypes; false for the others, which
// only ever see floating inputs (the front half promotes integers to float32 first) and call
// libm. CPU vector copies serve only these: a libm call per element gains nothing from them.
template <class Loop, class T>
bool unary_arithmetic(TensorIter& it, UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: unary_op<Loop, T, UnaryOp::Neg>(it); return true;
    case UnaryOp::Abs: unary_op<Loop, T, UnaryOp::Abs>(it); return true;
    case UnaryOp::Sign: unary_op<Loop, T, UnaryOp::Sign>(it); return true;
    case UnaryOp::Relu: unary_op<Loop, T, UnaryOp::Relu>(it); return true;
    case UnaryOp::Floor: unary_op<Loop, T, UnaryOp::Floor>(it); return true;
    case UnaryOp::Ceil: unary_op<Loop, T, UnaryOp::Ceil>(it); return true;
    case UnaryOp::Round: unary_op<Loop, T, UnaryOp::Round>(it); return true;
    case UnaryOp::Square: unary_op<Loop, T, UnaryOp::Square>(it); return true;
    case UnaryOp::LogicalNot: unary_op<Loop, T, UnaryOp::LogicalNot>(it); return true;
    default: return false;
  }
}

template <class Loop, class T>
void unary_typed(TensorIter& it, UnaryOp op) {
  if (unary_arithmetic<Loop, T>(it, op)) return;
  if constexpr (kIsFloat<opmath_t<T>>) {
    switch (op) {
      case UnaryOp::Exp: return unary_op<Loop, T, UnaryOp::Exp>(it);
      case UnaryOp::Log: return unary_op<Loop, T, UnaryOp::Log>(it);
      case UnaryOp::Log1p: return unary_op<Loop, T, UnaryOp::Log1p>(it);
      case UnaryOp::Expm1: return unary_op<Loop, T, UnaryOp::Expm1>(it);
      case UnaryOp::Sqrt: return unary_op<Loop, T, UnaryOp::Sqrt>(it);
      case UnaryOp::Rsqrt: return unary_op<Loop, T, UnaryOp::Rsqrt>(it);
      case UnaryOp::Sin: return unary_op<Loop, T, UnaryOp::Sin>(it);
      case UnaryOp::Cos: return unary_op<Loop, T, UnaryOp::Cos>(it);
      case UnaryOp::Tan: return unary_op<Loop, T, UnaryOp::Tan>(it);
      case UnaryOp::Tanh: return unary_op<Loop, T, UnaryOp::Tanh>(it);
      case UnaryOp::Sigmoid: return unary_op<Loop, T, UnaryOp::Sigmoid>(it);
      case UnaryOp::Gelu: return unary_op<Loop, T, UnaryOp::Gelu>(it);
      case UnaryOp::Silu: return unary_op<Loop, T, UnaryOp::Silu>(it);
      case UnaryOp::Erf: return unary_op<Loop, T, UnaryOp::Erf>(it);
      case UnaryOp::Reciprocal: return unary_op<Loop, T, UnaryOp::Reciprocal>(it);
      default: break;
    }
  }
  EMBER_INTERNAL_ASSERT(false, "unary op without a kernel for this dtype");
}

template <class Loop>
void unary_kernel(TensorIter& it, UnaryOp op) {
  dispatch_dtype(it.dtypes[1], "unary op",
                 [&](auto tag) { unary_typed<Loop, typename decltype(tag)::type>(it, op); });
}

template <class Loop, class T>
void clamp_typed(TensorIter& it, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  using M = opmath_t<T>;
  Clamp<M> f{lo ? lo->to<M>() : M{}, hi ? hi->to<M>() : M{}, lo.has_value(), hi.has_value()};
  Loop::template run<T, T>("clamp", it, f);
}

template <class Loop>
void clamp_kernel(TensorIter& it, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  dispatch_dtype(it.dtypes[1], "clamp",
                 [&](auto tag) { clamp_typed<Loop, typename decltype(tag)::type>(it, lo, hi); });
}

template <class Loop, class T>
void where_typed(TensorIter& it) {
  Loop::template run<T, bool, T, T>("where", it, Where<opmath_t<T>>{});
}

template <class Loop>
void where_kernel(TensorIter& it) {
  dispatch_dtype(it.dtypes[0], "where",
                 [&](auto tag) { where_typed<Loop, typename decltype(tag)::type>(it); });
}

// Register the kernels above for one device type. Two halves, so that a backend can compile them
// in two files (in parallel: the CUDA ones take minutes each).
template <class Loop>
void register_binary_and_compare_kernels(DeviceType type) {
  binary_stub.set(type, &binary_kernel<Loop>);
  compare_stub.set(type, &compare_kernel<Loop>);
}

template <class Loop>
void register_unary_clamp_where_kernels(DeviceType type) {
  unary_stub.set(type, &unary_kernel<Loop>);
  clamp_stub.set(type, &clamp_kernel<Loop>);
  where_stub.set(type, &where_kernel<Loop>);
}

}  // namespace ember::kernels
