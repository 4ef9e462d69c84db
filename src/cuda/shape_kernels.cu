// CUDA kernels of the shape ops: gather / scatter / scatter_add through an index (one thread per
// element, scatter_gather_program.h), index checks, and sort / topk (a bitonic sort per slice,
// sort_program.h).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "cuda/kernel_error.h"
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "cuda/scatter_gather_program.h"
#include "cuda/sort_program.h"
#include "ember/factory.h"
#include "ember/tensor.h"

namespace ember::cuda {
namespace {

using kernels::IndexOp;
using kernels::TensorIter;

using impl::blocks_for;
using impl::DeviceStream;

// ---- gather / scatter / scatter_add

// Note [Atomic updates of small elements]
// scatter_add's destinations can repeat, so the GPU adds with atomics, each giving the CPU
// kernel's sum (scatter_add_value); floating sums then come in the order the threads get there.
// - 4- and 8-byte elements, float16 and bfloat16: the hardware's atomicAdd. Its 16-bit sums round
//   the exact sum to nearest even, as the CPU's float sum rounded to 16 bits does: a float holds
//   the sum of two 16-bit floats closely enough that rounding twice changes nothing (24 >= 2p + 2
//   bits for p = 11 and 8). bfloat16 has the instruction from sm_90; CUDA's header falls back to a
//   16-bit compare-and-swap below that.
// - int16: a 16-bit compare-and-swap (sm_70 and later), which touches the element's own bytes.
// - 1-byte elements: no GPU has a 1-byte compare-and-swap, so the element is updated through the
//   aligned 32-bit word holding it, the other three bytes written back as they were. That word
//   lies inside the element's allocation: cudaMalloc returns 256-byte aligned memory, ember's
//   caching allocator hands out multiples of 512 bytes at 512-byte offsets of it, without caching
//   it rounds each allocation up to whole words (core/caching_allocator.cpp; the mode in which
//   compute-sanitizer checks the bounds of each), and GPU memory is always ember's own (from_blob
//   wraps host memory only). The other bytes belong to the same storage, and this launch writes
//   them through the same compare-and-swap.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "ember's CUDA kernels need compute capability 7.0 or later (16-bit atomicCAS)"
#endif

template <class To, class From>
__device__ To same_bits(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  memcpy(&to, &from, sizeof to);
  return to;
}

// *word = next(*word) as one atomic step: compare-and-swap until no other thread came between.
template <class Word, class Next>
__device__ void atomic_update(Word* word, const Next& next) {
  Word old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, next(assumed));
  } while (old != assumed);
}

// *dst = scatter_add_value(*dst, v) atomically (Note [Atomic updates of small elements]).
template <class T>
__device__ void atomic_accumulate(T* dst, T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                std::is_same_v<T, int32_t>) {
    atomicAdd(dst, v);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    // Two's complement: the unsigned sum has the signed sum's bits.
    atomicAdd(reinterpret_cast<unsigned long long*>(dst), static_cast<unsigned long long>(v));
  } else if constexpr (std::is_same_v<T, Half>) {
    atomicAdd(reinterpret_cast<__half*>(dst), __ushort_as_half(v.bits));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    atomicAdd(reinterpret_cast<__nv_bfloat16*>(dst), __ushort_as_bfloat16(v.bits));
  } else if constexpr (sizeof(T) == 2) {
    atomic_update(reinterpret_cast<unsigned short*>(dst), [v](unsigned short bits) {
      return same_bits<unsigned short>(scatter_add_value(same_bits<T>(bits), v));
    });
  } else {
    static_assert(sizeof(T) == 1);
    const auto address = reinterpret_cast<uintptr_t>(dst);
    const unsigned shift = static_cast<unsigned>(address & 3) * 8;
    atomic_update(reinterpret_cast<unsigned*>(address & ~uintptr_t{3}), [v, shift](unsigned word) {
      const T next = scatter_add_value(same_bits<T>(static_cast<uint8_t>(word >> shift)), v);
      return (word & ~(0xffu << shift)) | (unsigned{same_bits<uint8_t>(next)} << shift);
    });
  }
}

struct AtomicAccumulate {
  template <class T>
  __device__ void operator()(T* dst, T v) const {
    atomic_accumulate(dst, v);
  }
};

// A bad index is reported to the host through `error` (Note [Index errors found by GPU kernels]).
template <class T, IndexOp op, class index_t>
__global__ void __launch_bounds__(kScatterGatherThreads)
    scatter_gather_kernel(ScatterGatherArgs<index_t> args, KernelErrorSlot error) {
  const index_t i = static_cast<index_t>(blockIdx.x) * kScatterGatherThreads + threadIdx.x;
  if (i >= args.numel) return;
  int64_t index = 0;
  if (!scatter_gather_element<T, op>(args, i, AtomicAccumulate{}, index)) error.report(index);
}

// Scatter with two elements on one destination keeps one of them, not necessarily the last (as
// PyTorch on CUDA); scatter_add sums them all.
void scatter_gather(TensorIter& it, IndexOp op, const kernels::IndexBounds& bounds,
                    int64_t dim_stride) {
  if (it.numel == 0) return;
  DeviceStream on(it.device);
  const KernelErrorSlot error = impl::kernel_error_slot(it.device.index(), bounds);
  const unsigned blocks = blocks_for(it.numel, kScatterGatherThreads, "gather/scatter");
  auto launch = [&]<class index_t>() {
    const auto args = make_scatter_gather_args<index_t>(it, bounds.size, dim_stride);
    kernels::dispatch_dtype(it.dtypes[0], "gather/scatter", [&](auto tag) {
      using T = typename decltype(tag)::type;
      switch (op) {
        case IndexOp::Gather:
          scatter_gather_kernel<T, IndexOp::Gather>
              <<<blocks, kScatterGatherThreads, 0, on.stream>>>(args, error);
          break;
        case IndexOp::Scatter:
          scatter_gather_kernel<T, IndexOp::Scatter>
              <<<blocks, kScatterGatherThreads, 0, on.stream>>>(args, error);
          break;
        case IndexOp::ScatterAdd:
          scatter_gather_kernel<T, IndexOp::ScatterAdd>
              <<<blocks, kScatterGatherThreads, 0, on.stream>>>(args, error);
          break;
      }
    });
  };
  if (fits_32bit_indexing(it)) launch.template operator()<uint32_t>();
  else launch.template operator()<int64_t>();
  impl::after_launch(bounds.op, on.stream);
}

__global__ void __launch_bounds__(kScatterGatherThreads)
    check_indices_kernel(const int64_t* index, int64_t n, KernelErrorSlot error) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kScatterGatherThreads;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kScatterGatherThreads + threadIdx.x; i < n;
       i += stride) {
    const int64_t value = index[i];
    if (value < 0 || value >= error.size) error.report(value);
  }
}

void check_indices(const Tensor& index, const kernels::IndexBounds& bounds) {
  if (index.numel() == 0) return;
  const Tensor flat = index.contiguous();
  DeviceStream on(flat.device());
  const KernelErrorSlot error = impl::kernel_error_slot(flat.device().index(), bounds);
  // A grid-stride loop: a few thousand blocks fill any GPU.
  const auto blocks = static_cast<unsigned>(
      std::min<int64_t>((flat.numel() + kScatterGatherThreads - 1) / kScatterGatherThreads, 4096));
  check_indices_kernel<<<blocks, kScatterGatherThreads, 0, on.stream>>>(
      static_cast<const int64_t*>(flat.data_ptr()), flat.numel(), error);
  impl::after_launch(bounds.op, on.stream);
}

// ---- sort / topk (Note [Bitonic sort of slices])

template <class T>
__global__ void __launch_bounds__(kSortMaxThreads)
    sort_block_kernel(SortArgs args, int64_t slices) {
  // Raw storage: Half and BFloat16 have constructors, which __shared__ arrays may not have.
  __shared__ int32_t positions[kSortBlockMax];
  __shared__ alignas(alignof(T)) unsigned char storage[kSortBlockMax * sizeof(T)];
  T* values = reinterpret_cast<T*>(storage);
  auto phase = [](int64_t count, const auto& work) {
    for (int64_t t = threadIdx.x; t < count; t += blockDim.x) work(t);
    __syncthreads();
  };
  for (int64_t slice = blockIdx.x; slice < slices; slice += gridDim.x)
    sort_slice_in_block(args, slice, values, positions, phase);
}

template <class T>
__global__ void __launch_bounds__(kSortGlobalThreads)
    sort_load_kernel(SortArgs args, T* values, int64_t* positions, int64_t count) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kSortGlobalThreads + threadIdx.x;
  if (e < count) sort_load_global(args, values, positions, e);
}
template <class T>
__global__ void __launch_bounds__(kSortGlobalThreads)
    bitonic_step_kernel(SortArgs args, T* values, int64_t* positions, int64_t k, int64_t j,
                        int64_t count) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kSortGlobalThreads + threadIdx.x;
  if (e < count) bitonic_exchange_global(args, values, positions, k, j, e);
}
template <class T>
__global__ void __launch_bounds__(kSortGlobalThreads)
    sort_store_kernel(SortArgs args, const T* values, const int64_t* positions, int64_t count) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kSortGlobalThreads + threadIdx.x;
  if (e < count) sort_store_global(args, values, positions, e);
}

// Slices too long for shared memory: every bitonic step is a launch over all slices' pairs, on
// scratch copies from the caching allocator.
template <class T>
void sort_in_global_memory(const SortArgs& args, int64_t slices, Device device,
                           cudaStream_t stream) {
  const int64_t pairs = slices * args.pow2;
  Tensor values = empty({pairs}, TensorOptions(CppTypeToScalarType<T>::value).device(device));
  Tensor positions = empty({pairs}, TensorOptions(kInt64).device(device));
  T* v = static_cast<T*>(values.data_ptr());
  auto* p = static_cast<int64_t*>(positions.data_ptr());
  sort_load_kernel<T>
      <<<blocks_for(pairs, kSortGlobalThreads, "sort"), kSortGlobalThreads, 0, stream>>>(args, v, p,
                                                                                         pairs);
  impl::after_launch("sort", stream);
  for (BitonicStep s; s.k <= args.pow2; s = s.next()) {
    bitonic_step_kernel<T>
        <<<blocks_for(pairs / 2, kSortGlobalThreads, "sort"), kSortGlobalThreads, 0, stream>>>(
            args, v, p, s.k, s.j, pairs / 2);
    impl::after_launch("sort", stream);
  }
  const int64_t outputs = slices * args.k;
  sort_store_kernel<T>
      <<<blocks_for(outputs, kSortGlobalThreads, "sort"), kSortGlobalThreads, 0, stream>>>(
          args, v, p, outputs);
  impl::after_launch("sort", stream);
}

void sort(TensorIter& it, const kernels::SortSpec& spec) {
  if (it.numel == 0 || spec.k == 0) return;
  const SortArgs args = make_sort_args(it, spec);
  DeviceStream on(it.device);
  kernels::dispatch_dtype(it.dtypes[1], "sort", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (args.pow2 > kSortBlockMax)
      return sort_in_global_memory<T>(args, it.numel, it.device, on.stream);
    // One compare-exchange per thread and step, in whole warps.
    const auto threads =
        static_cast<int>(std::min<int64_t>(kSortMaxThreads, std::max<int64_t>(32, args.pow2 / 2)));
    const auto blocks = static_cast<unsigned>(std::min<int64_t>(it.numel, int64_t{1} << 30));
    sort_block_kernel<T><<<blocks, threads, 0, on.stream>>>(args, it.numel);
    impl::after_launch("sort", on.stream);
  });
}

}  // namespace

void register_shape_kernels() {
  kernels::scatter_gather_stub.set(DeviceType::CUDA, &scatter_gather);
  kernels::check_indices_stub.set(DeviceType::CUDA, &check_indices);
  kernels::sort_stub.set(DeviceType::CUDA, &sort);
}

}  // namespace ember::cuda
