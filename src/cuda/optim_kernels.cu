// CUDA kernels of the fused optimizer updates (Note [Fused optimizer steps] in
// kernels/optim_step.h): one thread per element, the functor the CPU loop calls, on the current
// stream of the parameter's device.
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "ember/tensor.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/optim_step.h"

namespace ember::cuda {
namespace {

using namespace kernels;

constexpr int kOptimThreads = 256;

template <class T, class Update>
__global__ void __launch_bounds__(kOptimThreads)
    sgd_momentum_kernel(T* p, const T* g, T* buf, int64_t n, Update update) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kOptimThreads + threadIdx.x;
  if (i < n) update(p, g, buf, i);
}

template <class T, class Update>
__global__ void __launch_bounds__(kOptimThreads)
    adam_kernel(T* p, const T* g, T* m, T* v, int64_t n, Update update) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kOptimThreads + threadIdx.x;
  if (i < n) update(p, g, m, v, i);
}

template <class T>
T* data(const Tensor& t) {
  return static_cast<T*>(t.data_ptr());
}

// Runs launch(blocks, stream) for p's elements on p's device, with the launch check after it.
template <class Launch>
void launch_over(const Tensor& p, const char* op, const Launch& launch) {
  const int64_t n = p.numel();
  if (n == 0) return;
  const int index = p.device().index();
  impl::RuntimeDeviceScope device(index);
  const cudaStream_t stream = impl::native_stream(impl::current_stream_id(index));
  const int64_t blocks = (n + kOptimThreads - 1) / kOptimThreads;
  EMBER_CHECK(blocks <= INT32_MAX, "[", op, "] needs ", blocks,
              " thread blocks, more than one CUDA launch takes");
  launch(static_cast<unsigned>(blocks), stream);
  impl::after_launch(op, stream);
}

void sgd_momentum_step(const Tensor& p, const Tensor& grad, const Tensor& buf,
                       const SgdMomentumStep& step) {
  dispatch_floating(p.dtype(), "SGD step", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const SgdMomentumUpdate<opmath_t<T>> update(step);
    launch_over(p, "SGD step", [&](unsigned blocks, cudaStream_t stream) {
      sgd_momentum_kernel<<<blocks, kOptimThreads, 0, stream>>>(data<T>(p), data<T>(grad),
                                                                data<T>(buf), p.numel(), update);
    });
  });
}

void adam_step(const Tensor& p, const Tensor& grad, const Tensor& m, const Tensor& v,
               const AdamStep& step) {
  dispatch_floating(p.dtype(), "Adam step", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const AdamUpdate<opmath_t<T>> update(step);
    launch_over(p, "Adam step", [&](unsigned blocks, cudaStream_t stream) {
      adam_kernel<<<blocks, kOptimThreads, 0, stream>>>(data<T>(p), data<T>(grad), data<T>(m),
                                                        data<T>(v), p.numel(), update);
    });
  });
}

}  // namespace

void register_optim_kernels() {
  sgd_momentum_step_stub.set(DeviceType::CUDA, &sgd_momentum_step);
  adam_step_stub.set(DeviceType::CUDA, &adam_step);
}

}  // namespace ember::cuda
