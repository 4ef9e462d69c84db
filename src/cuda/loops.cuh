// gpu_kernel: the CUDA elementwise loop. Runs a functor from kernels/functors.h over a
// TensorIter on the current stream of the iterator's device; the per-thread work and the launch
// plan live in elementwise_program.h, shared with the emulated-loop tests.
#pragma once

// The shared functors keep their sign tests (a < 0, b == -1) for unsigned T too, where they are
// constant; g++ stays quiet about that inside templates, nvcc's front end does not (#186, #514).
// Making those tests `if constexpr (std::is_signed_v<T>)` in kernels/functors.h would let these
// two lines go. They come before the includes: nvcc applies the state at the template's definition.
#pragma nv_diag_suppress 186
#pragma nv_diag_suppress 514

#include "cuda/elementwise_program.h"
#include "cuda/launch.h"
#include "kernels/tensor_iter.h"

namespace ember::cuda {

template <class Types, class F, int N, class index_t>
__global__ void __launch_bounds__(kThreadsPerBlock)
    elementwise_kernel(ElementwiseArgs<N, index_t> args, F f) {
  elementwise_thread(Types{}, args, f, static_cast<index_t>(blockIdx.x),
                     static_cast<int>(threadIdx.x));
}

// Applies f to every element: out = f(in...). Out and In are storage types; f sees opmath
// types. `op` names the launch in errors.
template <class Out, class... In, class F>
void gpu_kernel(const char* op, const kernels::TensorIter& it, const F& f) {
  if (it.numel == 0) return;
  const impl::DeviceStream on(it.device);
  plan_elementwise<Out, In...>(it, [&](const auto& args, int64_t blocks) {
    elementwise_kernel<ElementTypes<Out, In...>>
        <<<impl::grid_size(blocks, op), kThreadsPerBlock, 0, on.stream>>>(args, f);
    impl::after_launch(op, on.stream);
  });
}

// gpu_kernel as the Loop policy of kernels/elementwise_kernels.h.
struct GpuLoop {
  template <class Out, class... In, class F>
  static void run(const char* op, const kernels::TensorIter& it, const F& f) {
    gpu_kernel<Out, In...>(op, it, f);
  }
};

}  // namespace ember::cuda
