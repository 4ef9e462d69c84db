// The CUDA elementwise loop minus the launch: launch geometry, the vector/offset plan chosen on
// the host, and the program of one GPU thread. Compiled by g++ and nvcc (Note [Emulated GPU
// loop]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "ember/macros.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/iter_offsets.h"
#include "kernels/offset_calc.h"
#include "kernels/tensor_iter.h"

namespace ember::cuda {

// Note [Emulated GPU loop]
// Everything the CUDA kernel does per thread is elementwise_thread() below, and everything the
// host decides (index width, vector width, grid size) is plan_elementwise(). loops.cuh only adds
// the <<<grid, block>>> launch. tests/cuda/emulated_gpu_loop.h's EmulatedGpuLoop, a Loop policy
// like GpuLoop and CpuLoop, runs the same two functions with a host loop over (block, thread),
// on iterators that kernels::make_iter builds (dims coalesced as the GPU gets them), and the
// tests compare with the CPU kernels, so the GPU's indexing and math are checked on machines
// without a GPU. The other per-thread programs (*_program.h) are run on the host the same way.

// PyTorch's launch shape: 128 threads, 4 elements each, so one block covers 512 elements. Each
// thread's elements are kThreadsPerBlock apart (the scalar path) or one vector of adjacent
// elements (the vector path), so a warp's accesses stay coalesced either way.
inline constexpr int kThreadsPerBlock = 128;
inline constexpr int kElementsPerThread = 4;
inline constexpr int64_t kBlockWork = kThreadsPerBlock * kElementsPerThread;

// V elements loaded or stored with one instruction (16 bytes for 4 floats).
template <class T, int V>
struct alignas(sizeof(T) * V) AlignedVector {
  T val[V];
};

// What one launch needs, passed by value as the kernel's parameter.
template <int N, class index_t>
struct ElementwiseArgs {
  char* data[N];  // operand 0 is the output
  index_t numel;
  int vector_size;  // 4 or 2: every operand dense and aligned to that many; 1: use `offsets`
  kernels::OffsetCalculator<N, index_t> offsets;
};

namespace detail {

template <class T>
EMBER_HOST_DEVICE inline kernels::opmath_t<T> load(const char* p) {
  return static_cast<kernels::opmath_t<T>>(*reinterpret_cast<const T*>(p));
}

// One thread's input values, one array per input of its own type: loading all of them before
// computing lets the loads overlap (the output may alias an input, so the compiler could not
// move a later load above an earlier store by itself).
template <size_t I, class T>
struct Slot {
  T v[kElementsPerThread];
};
template <class Seq, class... T>
struct Registers;
template <size_t... I, class... T>
struct Registers<std::index_sequence<I...>, T...> : Slot<I, T>... {};
template <size_t I, class T>
EMBER_HOST_DEVICE inline T* slot(Slot<I, T>& s) {
  return s.v;
}

template <class T, int V>
EMBER_HOST_DEVICE inline void load_vector(const char* base, int64_t first,
                                          kernels::opmath_t<T>* out) {
  const auto vec = *reinterpret_cast<const AlignedVector<T, V>*>(base + first * int64_t{sizeof(T)});
  for (int e = 0; e < V; ++e) out[e] = static_cast<kernels::opmath_t<T>>(vec.val[e]);
}

// A full block of dense, aligned operands: thread t's j-th vector starts at element
// base + (t + j * threads) * V.
template <int V, class Out, class... In, class F, int N, class index_t, size_t... I>
EMBER_HOST_DEVICE void vector_thread(const ElementwiseArgs<N, index_t>& args, const F& f,
                                     index_t base, int thread, std::index_sequence<I...>) {
  constexpr int kVectors = kElementsPerThread / V;
  // [[maybe_unused]]: fill_ has no inputs, so nothing is loaded.
  [[maybe_unused]] Registers<std::index_sequence<I...>, kernels::opmath_t<In>...> regs;
  for (int j = 0; j < kVectors; ++j) {
    [[maybe_unused]] const int64_t first =
        static_cast<int64_t>(base) + (thread + j * kThreadsPerBlock) * V;
    (load_vector<In, V>(args.data[I + 1], first, slot<I>(regs) + j * V), ...);
  }
  for (int j = 0; j < kVectors; ++j) {
    const int64_t first = static_cast<int64_t>(base) + (thread + j * kThreadsPerBlock) * V;
    AlignedVector<Out, V> out;
    for (int e = 0; e < V; ++e) out.val[e] = kernels::convert<Out>(f(slot<I>(regs)[j * V + e]...));
    *reinterpret_cast<AlignedVector<Out, V>*>(args.data[0] + first * int64_t{sizeof(Out)}) = out;
  }
}

// Any geometry, and the tail block: thread t's elements are base + t + j * threads, each placed
// by the offset calculator.
template <class Out, class... In, class F, int N, class index_t, size_t... I>
EMBER_HOST_DEVICE void offset_thread(const ElementwiseArgs<N, index_t>& args, const F& f,
                                     index_t base, int thread, std::index_sequence<I...>) {
  [[maybe_unused]] Registers<std::index_sequence<I...>, kernels::opmath_t<In>...> regs;
  index_t out_offset[kElementsPerThread];
  for (int j = 0; j < kElementsPerThread; ++j) {
    const index_t idx = base + static_cast<index_t>(thread + j * kThreadsPerBlock);
    if (idx >= args.numel) break;
    const auto offsets = args.offsets.get(idx);
    out_offset[j] = offsets.at[0];
    ((slot<I>(regs)[j] = load<In>(args.data[I + 1] + offsets.at[I + 1])), ...);
  }
  for (int j = 0; j < kElementsPerThread; ++j) {
    const index_t idx = base + static_cast<index_t>(thread + j * kThreadsPerBlock);
    if (idx >= args.numel) break;
    *reinterpret_cast<Out*>(args.data[0] + out_offset[j]) =
        kernels::convert<Out>(f(slot<I>(regs)[j]...));
  }
}

}  // namespace detail

// The storage types of an elementwise op, as one type: a __global__ template may not have a
// parameter pack before its other parameters.
template <class Out, class... In>
struct ElementTypes {};

// The work of thread `thread` of block `block`: out = f(in...) on its elements. Out and In are
// storage types; f sees opmath types, as in cpu_kernel.
template <class Out, class... In, class F, int N, class index_t>
EMBER_HOST_DEVICE void elementwise_thread(ElementTypes<Out, In...>,
                                          const ElementwiseArgs<N, index_t>& args, const F& f,
                                          index_t block, int thread) {
  static_assert(N == 1 + sizeof...(In));
  const index_t base = block * static_cast<index_t>(kBlockWork);
  const auto inputs = std::index_sequence_for<In...>{};
  if (args.vector_size > 1 && args.numel - base >= static_cast<index_t>(kBlockWork)) {
    if (args.vector_size == 4)
      return detail::vector_thread<4, Out, In...>(args, f, base, thread, inputs);
    return detail::vector_thread<2, Out, In...>(args, f, base, thread, inputs);
  }
  detail::offset_thread<Out, In...>(args, f, base, thread, inputs);
}

// The widest vector (4, 2 or 1 element) that every operand of a 1-D dense iterator is aligned
// to; 1 for any other geometry.
template <class Out, class... In>
int vector_size(const kernels::TensorIter& it) {
  constexpr size_t kSizes[] = {sizeof(Out), sizeof(In)...};
  if (it.ndim != 1) return 1;
  for (int k = 0; k < it.ntensors; ++k)
    if (it.strides[k][0] != static_cast<int64_t>(kSizes[k])) return 1;
  for (int v : {4, 2}) {
    bool aligned = true;
    for (int k = 0; k < it.ntensors; ++k)
      aligned = aligned && reinterpret_cast<uintptr_t>(it.data[k]) % (kSizes[k] * v) == 0;
    if (aligned) return v;
  }
  return 1;
}

// Chooses the index width and vector width for a non-empty iterator and calls
// launch(args, blocks) with the kernel's parameter and the grid size.
template <class Out, class... In, class Launch>
void plan_elementwise(const kernels::TensorIter& it, const Launch& launch) {
  constexpr int N = 1 + sizeof...(In);
  EMBER_INTERNAL_ASSERT(it.ntensors == N && it.numel > 0, "elementwise plan: bad iterator");
  const int64_t blocks = (it.numel + kBlockWork - 1) / kBlockWork;
  auto plan = [&]<class index_t>() {
    ElementwiseArgs<N, index_t> args{};
    for (int k = 0; k < N; ++k) args.data[k] = it.data[k];
    args.numel = static_cast<index_t>(it.numel);
    args.vector_size = vector_size<Out, In...>(it);
    args.offsets = kernels::make_offset_calculator<N, index_t>(it);
    launch(args, blocks);
  };
  if (kernels::fits_32bit_indexing(it)) plan.template operator()<uint32_t>();
  else plan.template operator()<int64_t>();
}

}  // namespace ember::cuda
