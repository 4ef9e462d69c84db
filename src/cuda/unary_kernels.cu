// CUDA kernels of the unary family, clamp and where: the functors of kernels/functors.h through
// gpu_kernel, dispatched exactly as cpu/unary_kernels.cpp does.
#include "cuda/kernels.h"
#include "cuda/loops.cuh"
#include "kernels/stubs.h"

namespace ember::cuda {
namespace {

using namespace kernels;

template <class T, UnaryOp op>
void unary_typed(TensorIter& it) {
  using Out = std::conditional_t<op == UnaryOp::LogicalNot, bool, T>;
  gpu_kernel<Out, T>("unary op", it, Unary<opmath_t<T>, op>{});
}

// Ops that keep integer dtypes; the others only ever see floating inputs (the front half
// promotes integers to float32 first).
template <class T>
void unary_any(TensorIter& it, UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg:
      return unary_typed<T, UnaryOp::Neg>(it);
    case UnaryOp::Abs:
      return unary_typed<T, UnaryOp::Abs>(it);
    case UnaryOp::Sign:
      return unary_typed<T, UnaryOp::Sign>(it);
    case UnaryOp::Relu:
      return unary_typed<T, UnaryOp::Relu>(it);
    case UnaryOp::Floor:
      return unary_typed<T, UnaryOp::Floor>(it);
    case UnaryOp::Ceil:
      return unary_typed<T, UnaryOp::Ceil>(it);
    case UnaryOp::Round:
      return unary_typed<T, UnaryOp::Round>(it);
    case UnaryOp::Square:
      return unary_typed<T, UnaryOp::Square>(it);
    case UnaryOp::LogicalNot:
      return unary_typed<T, UnaryOp::LogicalNot>(it);
    default:
      break;
  }
  if constexpr (kIsFloat<opmath_t<T>>) {
    switch (op) {
      case UnaryOp::Exp:
        return unary_typed<T, UnaryOp::Exp>(it);
      case UnaryOp::Log:
        return unary_typed<T, UnaryOp::Log>(it);
      case UnaryOp::Log1p:
        return unary_typed<T, UnaryOp::Log1p>(it);
      case UnaryOp::Expm1:
        return unary_typed<T, UnaryOp::Expm1>(it);
      case UnaryOp::Sqrt:
        return unary_typed<T, UnaryOp::Sqrt>(it);
      case UnaryOp::Rsqrt:
        return unary_typed<T, UnaryOp::Rsqrt>(it);
      case UnaryOp::Sin:
        return unary_typed<T, UnaryOp::Sin>(it);
      case UnaryOp::Cos:
        return unary_typed<T, UnaryOp::Cos>(it);
      case UnaryOp::Tan:
        return unary_typed<T, UnaryOp::Tan>(it);
      case UnaryOp::Tanh:
        return unary_typed<T, UnaryOp::Tanh>(it);
      case UnaryOp::Sigmoid:
        return unary_typed<T, UnaryOp::Sigmoid>(it);
      case UnaryOp::Gelu:
        return unary_typed<T, UnaryOp::Gelu>(it);
      case UnaryOp::Silu:
        return unary_typed<T, UnaryOp::Silu>(it);
      case UnaryOp::Erf:
        return unary_typed<T, UnaryOp::Erf>(it);
      case UnaryOp::Reciprocal:
        return unary_typed<T, UnaryOp::Reciprocal>(it);
      default:
        break;
    }
  }
  EMBER_INTERNAL_ASSERT(false, "unary op without a kernel for this dtype");
}

void unary_kernel(TensorIter& it, UnaryOp op) {
  dispatch_dtype(it.dtypes[1], "unary op",
                 [&](auto tag) { unary_any<typename decltype(tag)::type>(it, op); });
}

void clamp_kernel(TensorIter& it, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  dispatch_dtype(it.dtypes[1], "clamp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    Clamp<M> f{lo ? lo->to<M>() : M{}, hi ? hi->to<M>() : M{}, lo.has_value(), hi.has_value()};
    gpu_kernel<T, T>("clamp", it, f);
  });
}

void where_kernel(TensorIter& it) {
  dispatch_dtype(it.dtypes[0], "where", [&](auto tag) {
    using T = typename decltype(tag)::type;
    gpu_kernel<T, bool, T, T>("where", it, Where<opmath_t<T>>{});
  });
}

}  // namespace

void register_unary_kernels() {
  unary_stub.set(DeviceType::CUDA, &unary_kernel);
  clamp_stub.set(DeviceType::CUDA, &clamp_kernel);
  where_stub.set(DeviceType::CUDA, &where_kernel);
}

}  // namespace ember::cuda
