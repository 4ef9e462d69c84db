// CUDA kernels of the binary arithmetic and comparison families: the functors of
// kernels/functors.h through gpu_kernel, dispatched exactly as cpu/binary_kernels.cpp does.
#include "cuda/kernels.h"
#include "cuda/loops.cuh"
#include "kernels/stubs.h"

namespace ember::cuda {
namespace {

using namespace kernels;

void binary_kernel(TensorIter& it, BinaryOp op, Scalar alpha) {
  dispatch_dtype(it.dtypes[1], "binary op", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    switch (op) {
      case BinaryOp::Add:
        return gpu_kernel<T, T, T>("add", it, AddAlpha<M>{alpha.to<M>()});
      case BinaryOp::Mul:
        return gpu_kernel<T, T, T>("mul", it, Mul<M>{});
      case BinaryOp::Div:
        if constexpr (kIsFloat<M>) return gpu_kernel<T, T, T>("div", it, Div<M>{});
        break;
      case BinaryOp::FloorDivide:
        if constexpr (!std::is_same_v<M, bool>)
          return gpu_kernel<T, T, T>("floor_divide", it, FloorDivide<M>{});
        break;
      case BinaryOp::Remainder:
        if constexpr (!std::is_same_v<M, bool>)
          return gpu_kernel<T, T, T>("remainder", it, Remainder<M>{});
        break;
      case BinaryOp::Pow:
        if constexpr (!std::is_same_v<M, bool>) return gpu_kernel<T, T, T>("pow", it, Pow<M>{});
        break;
      case BinaryOp::Maximum:
        return gpu_kernel<T, T, T>("maximum", it, Maximum<M>{});
      case BinaryOp::Minimum:
        return gpu_kernel<T, T, T>("minimum", it, Minimum<M>{});
    }
    EMBER_INTERNAL_ASSERT(false, "binary op without a kernel for this dtype");
  });
}

template <class T, CompareOp op>
void compare_typed(TensorIter& it) {
  gpu_kernel<bool, T, T>("comparison", it, Compare<opmath_t<T>, op>{});
}

void compare_kernel(TensorIter& it, CompareOp op) {
  dispatch_dtype(it.dtypes[1], "comparison", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
      case CompareOp::Eq:
        return compare_typed<T, CompareOp::Eq>(it);
      case CompareOp::Ne:
        return compare_typed<T, CompareOp::Ne>(it);
      case CompareOp::Lt:
        return compare_typed<T, CompareOp::Lt>(it);
      case CompareOp::Le:
        return compare_typed<T, CompareOp::Le>(it);
      case CompareOp::Gt:
        return compare_typed<T, CompareOp::Gt>(it);
      case CompareOp::Ge:
        return compare_typed<T, CompareOp::Ge>(it);
      case CompareOp::LogicalAnd:
        return compare_typed<T, CompareOp::LogicalAnd>(it);
      case CompareOp::LogicalOr:
        return compare_typed<T, CompareOp::LogicalOr>(it);
      case CompareOp::LogicalXor:
        return compare_typed<T, CompareOp::LogicalXor>(it);
    }
  });
}

}  // namespace

void register_binary_kernels() {
  binary_stub.set(DeviceType::CUDA, &binary_kernel);
  compare_stub.set(DeviceType::CUDA, &compare_kernel);
}

}  // namespace ember::cuda
