// CUDA random draws (rand, randn, randint, dropout's masks): random_program.h per thread, the
// CPU's numbers for the same seed and offset.
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "cuda/random_program.h"

namespace ember::cuda {
namespace {

template <class T>
__global__ void __launch_bounds__(kRandomThreads) random_kernel(RandomArgs args, int64_t threads) {
  const int64_t thread = static_cast<int64_t>(blockIdx.x) * kRandomThreads + threadIdx.x;
  if (thread < threads) random_thread<T>(args, thread);
}

void random_draw(const Tensor& out, kernels::RandomKind kind, double a, double b, uint64_t seed,
                 uint64_t offset) {
  const RandomArgs args{out.data_ptr(), out.numel(), kind, a, b, seed, offset};
  const int64_t threads = random_threads(args);
  if (threads == 0) return;
  const impl::DeviceStream on(out.device());
  const unsigned blocks = impl::blocks_for(threads, kRandomThreads, "random");
  kernels::dispatch_dtype(out.scalar_type(), "random", [&](auto tag) {
    using T = typename decltype(tag)::type;
    random_kernel<T><<<blocks, kRandomThreads, 0, on.stream>>>(args, threads);
  });
  impl::after_launch("random", on.stream);
}

}  // namespace

void register_random_kernels() { kernels::random_stub.set(DeviceType::CUDA, &random_draw); }

}  // namespace ember::cuda
