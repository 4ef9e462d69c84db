// The launch of the CUDA gemm's own kernel (gemm_loop.h): one thread per element of c.
#include <type_traits>

#include "cuda/gemm_loop.h"
#include "cuda/launch.h"

namespace ember::cuda {
namespace {

template <class T>
__global__ void __launch_bounds__(kGemmLoopThreads)
    gemm_loop_kernel(GemmLoopArgs<T> args, int64_t numel) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kGemmLoopThreads + threadIdx.x;
  if (e < numel) gemm_loop_element(args, e);
}

}  // namespace

void gemm_loop(const Tensor& a, const Tensor& b, const Tensor& c, Scalar alpha, Scalar beta) {
  const int64_t numel = c.numel();
  if (numel == 0) return;
  const impl::DeviceStream on(c.device());
  const unsigned blocks = impl::blocks_for(numel, kGemmLoopThreads, "matmul");
  kernels::dispatch_dtype(c.scalar_type(), "matmul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      EMBER_INTERNAL_ASSERT(false, "matmul front halves refuse bool tensors");
    } else {
      gemm_loop_kernel<T><<<blocks, kGemmLoopThreads, 0, on.stream>>>(
          make_gemm_loop_args<T>(a, b, c, alpha, beta), numel);
    }
  });
  impl::after_launch("matmul", on.stream);
}

}  // namespace ember::cuda
