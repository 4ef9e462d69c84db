// CUDA kernels of the fused optimizer updates (Note [Fused optimizer steps] in
// kernels/optim_step.h): one thread per element, the functor the CPU loop calls, on the current
// stream of the parameter's device.
#include "cuda/kernels.h"
#include "cuda/launch.h"
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

using impl::device_ptr;
using impl::launch_per_element;

void sgd_momentum_step(const Tensor& p, const Tensor& grad, const Tensor& buf,
                       const SgdMomentumStep& step) {
  launch_per_element<kOptimThreads>(
      "SGD step", p, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
        using T = typename decltype(tag)::type;
        sgd_momentum_kernel<<<blocks, kOptimThreads, 0, stream>>>(
            device_ptr<T>(p), device_ptr<const T>(grad), device_ptr<T>(buf), numel,
            SgdMomentumUpdate<opmath_t<T>>(step));
      });
}

void adam_step(const Tensor& p, const Tensor& grad, const Tensor& m, const Tensor& v,
               const AdamStep& step) {
  launch_per_element<kOptimThreads>(
      "Adam step", p, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
        using T = typename decltype(tag)::type;
        adam_kernel<<<blocks, kOptimThreads, 0, stream>>>(
            device_ptr<T>(p), device_ptr<const T>(grad), device_ptr<T>(m), device_ptr<T>(v), numel,
            AdamUpdate<opmath_t<T>>(step));
      });
}

}  // namespace

void register_optim_kernels() {
  sgd_momentum_step_stub.set(DeviceType::CUDA, &sgd_momentum_step);
  adam_step_stub.set(DeviceType::CUDA, &adam_step);
}

}  // namespace ember::cuda
