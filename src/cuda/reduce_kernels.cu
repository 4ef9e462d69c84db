// CUDA kernels of reductions, scans (cumsum, cumprod), softmax and the index range: the block
// programs of reduce_program.h, scan_program.h and softmax_program.h run by DeviceBlock, launched
// on the current stream of the tensors' device.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "cuda/reduce_program.h"
#include "cuda/scan_program.h"
#include "cuda/softmax_program.h"
#include "ember/factory.h"
#include "kernels/reduce_iter.h"
#include "kernels/shape_stubs.h"

namespace ember::cuda {
namespace {

using namespace kernels;

// The executor of Note [Block programs] on the GPU: each thread runs the program for itself.
struct DeviceBlock {
  unsigned char* smem;

  template <class V>
  struct Regs {
    V v;
    __device__ V& operator[](int) { return v; }
  };
  template <class V>
  __device__ Regs<V> regs() const {
    return {};
  }
  template <class F>
  __device__ void each(const F& f) const {
    f(static_cast<int>(threadIdx.x));
  }
  __device__ void sync() const { __syncthreads(); }
  template <class V>
  __device__ V* shared() const {
    return reinterpret_cast<V*>(smem);
  }

  // __shfl_*_sync move 32-bit words: any trivially copyable V goes word by word.
  template <bool kDown, class V>
  __device__ static V shuffle(V v, int offset, int width) {
    constexpr int kWords = (sizeof(V) + 3) / 4;
    unsigned words[kWords] = {};
    std::memcpy(words, &v, sizeof(V));
    for (int w = 0; w < kWords; ++w)
      words[w] = kDown ? __shfl_down_sync(0xffffffffu, words[w], offset, width)
                       : __shfl_up_sync(0xffffffffu, words[w], offset, width);
    std::memcpy(&v, words, sizeof(V));
    return v;
  }
  template <class V, class Ops>
  __device__ void warp_reduce(Regs<V>& r, int width, const Ops& ops) const {
    for (int offset = width / 2; offset > 0; offset /= 2)
      r.v = ops.combine(r.v, shuffle<true>(r.v, offset, width));
  }
  template <class V, class Ops>
  __device__ void warp_exclusive_scan(Regs<V>& r, const Ops& ops) const {
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    V inclusive = r.v;
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
      const V below = shuffle<false>(inclusive, offset, kWarpSize);
      if (lane >= offset) inclusive = ops.combine(below, inclusive);
    }
    const V exclusive = shuffle<false>(inclusive, 1, kWarpSize);
    r.v = lane == 0 ? ops.identity() : exclusive;
  }
};

// 16: the widest accumulator member (double, int64_t) and any vector type a compiler may use.
extern __shared__ __align__(16) unsigned char shared_memory[];

template <class T, class Out, class Ops>
__global__ void __launch_bounds__(kMaxBlockThreads, reduce_min_blocks<Ops>())
    reduce_kernel(ReduceArgs<T, Out, Ops> a) {
  DeviceBlock b{shared_memory};
  reduce_block(b, a, blockIdx.x, blockIdx.y);
}

template <class T, class Out, class Ops>
__global__ void __launch_bounds__(kMaxBlockThreads) finish_kernel(ReduceArgs<T, Out, Ops> a) {
  DeviceBlock b{shared_memory};
  finish_block(b, a, blockIdx.x);
}

template <class T>
__global__ void __launch_bounds__(kMaxBlockThreads) softmax_kernel(SoftmaxArgs<T> a) {
  DeviceBlock b{shared_memory};
  softmax_block(b, a, blockIdx.x);
}

template <class Op, class T>
__global__ void __launch_bounds__(kMaxBlockThreads) scan_block_kernel(ScanArgs<T> a) {
  DeviceBlock b{shared_memory};
  scan_block<Op>(b, a, blockIdx.x);
}

template <class Op, class T>
__global__ void __launch_bounds__(kMaxBlockThreads) scan_total_kernel(ScanArgs<T> a) {
  DeviceBlock b{shared_memory};
  scan_tile_total<Op>(b, a, blockIdx.x);
}

template <class Op, class T>
__global__ void __launch_bounds__(kScanLineThreads) scan_line_kernel(ScanArgs<T> a) {
  const int64_t line = int64_t{blockIdx.x} * kScanLineThreads + threadIdx.x;
  if (line < a.lines.count()) scan_line<Op>(a, line);
}

using impl::blocks_for;
using impl::grid_size;

// What every launch here needs: the device made current, its current stream and its size.
struct LaunchOn : impl::DeviceStream {
  int sm_count;

  explicit LaunchOn(Device device)
      : DeviceStream(device), sm_count(impl::multiprocessor_count(device.index())) {}
};

// dispatch_reduce's loop: plan, then the block launch and, with splits, the finishing launch.
struct GpuReduceLoop {
  const char* op;

  template <class T, class Out, class Ops>
  void run(const ReduceIter& it, const Ops& ops) const {
    if (it.geometry.num_outputs == 0) return;
    using Acc = acc_of<Ops>;
    LaunchOn on(it.device);
    auto args = make_reduce_args<T, Out>(it, ops, on.sm_count);
    const ReducePlan& plan = args.plan;
    const int64_t outputs = it.geometry.num_outputs;
    // Freed on return: the caching allocator reuses it only on this stream, after these launches.
    Tensor partials;
    if (plan.splits > 1) {
      partials = empty({plan.splits * outputs * static_cast<int64_t>(sizeof(Acc))},
                       TensorOptions().dtype(kUInt8).device(it.device));
      args.partials = static_cast<Acc*>(partials.data_ptr());
    }
    reduce_kernel<<<dim3(grid_size(plan.output_blocks, op), grid_size(plan.splits, op)),
                    plan.shape.threads(), shared_bytes(args, plan.shape), on.stream>>>(args);
    impl::after_launch(op, on.stream);
    if (plan.splits == 1) return;
    finish_kernel<<<grid_size(plan.finish_blocks, op), plan.finish_shape.threads(),
                    shared_bytes(args, plan.finish_shape), on.stream>>>(args);
    impl::after_launch(op, on.stream);
  }
};

const char* kind_name(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::Sum: return "sum";
    case ReduceKind::Mean: return "mean";
    case ReduceKind::Prod: return "prod";
    case ReduceKind::Max: return "max";
    case ReduceKind::Min: return "min";
    case ReduceKind::ArgMax: return "argmax";
    case ReduceKind::ArgMin: return "argmin";
    case ReduceKind::Any: return "any";
    case ReduceKind::All: return "all";
    case ReduceKind::Var: return "var";
    case ReduceKind::Std: return "std";
    case ReduceKind::Norm: return "norm";
    case ReduceKind::LogSumExp: return "logsumexp";
  }
  return "reduction";
}

void reduce_cuda(const ReduceIter& it, ReduceKind kind, const ReduceParams& params) {
  kernels::dispatch_reduce(it, kind, params, GpuReduceLoop{kind_name(kind)});
}

// In place (in and out the same tensor) too: Note [CUDA scan plan] scans its tiles' totals so.
void scan_cuda(const Tensor& in, const Tensor& out, int64_t dim, ScanKind kind) {
  if (in.numel() == 0) return;
  const Lines lines(in.sizes().data(), in.dim(), dim);
  const char* op = scan_name(kind);
  dispatch_dtype(in.scalar_type(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = scan_acc_t<T>;
    with_scan_op<Acc>(kind, [&](auto functor) {
      using Op = decltype(functor);
      LaunchOn on(in.device());
      auto args = make_scan_args(static_cast<const T*>(in.data_ptr()),
                                 static_cast<T*>(out.data_ptr()), lines, on.sm_count);
      if (!args.block_scan) {
        scan_line_kernel<Op>
            <<<blocks_for(lines.count(), kScanLineThreads, op), kScanLineThreads, 0, on.stream>>>(
                args);
        impl::after_launch(op, on.stream);
        return;
      }
      const unsigned blocks = grid_size(args.blocks(), op);
      Tensor totals;  // freed on return; the caching allocator orders its reuse after the launches
      if (args.tiles > 1) {
        totals = empty({lines.count(), args.tiles},
                       TensorOptions().dtype(CppTypeToScalarType<Acc>::value).device(in.device()));
        args.totals = static_cast<Acc*>(totals.data_ptr());
        scan_total_kernel<Op><<<blocks, args.threads, shared_bytes(args), on.stream>>>(args);
        impl::after_launch(op, on.stream);
        scan_cuda(totals, totals, 1, kind);
      }
      scan_block_kernel<Op><<<blocks, args.threads, shared_bytes(args), on.stream>>>(args);
      impl::after_launch(op, on.stream);
    });
  });
}

void softmax_cuda(const Tensor& in, const Tensor& out, int64_t dim, bool log) {
  if (in.numel() == 0) return;
  const Lines lines(in.sizes().data(), in.dim(), dim);
  const char* op = log ? "log_softmax" : "softmax";
  dispatch_floating(in.scalar_type(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    LaunchOn on(in.device());
    const auto args = make_softmax_args(static_cast<const T*>(in.data_ptr()),
                                        static_cast<T*>(out.data_ptr()), lines, log);
    softmax_kernel<<<grid_size(softmax_blocks(args), op), args.shape.threads(), shared_bytes(args),
                     on.stream>>>(args);
    impl::after_launch(op, on.stream);
  });
}

}  // namespace

void register_reduce_kernels() {
  reduce_stub.set(DeviceType::CUDA, &reduce_cuda);
  scan_stub.set(DeviceType::CUDA, &scan_cuda);
  softmax_stub.set(DeviceType::CUDA, &softmax_cuda);
}

}  // namespace ember::cuda
