// CUDA kernels of the fused recurrent cells (Note [Fused recurrent cells] in kernels/rnn_cell.h):
// one thread per (batch row, hidden unit) element, the functor the CPU loop calls, on the current
// stream of the step's device.
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "kernels/rnn_cell.h"

namespace ember::cuda {
namespace {

using namespace kernels;

constexpr int kCellThreads = 256;

template <class Cell, class... Pointers>
__global__ void __launch_bounds__(kCellThreads)
    cell_kernel(int64_t n, Cell cell, Pointers... pointers) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * kCellThreads + threadIdx.x;
  if (e < n) cell(pointers..., e / cell.hidden, e % cell.hidden);
}

// One thread per element of `out` ([B, H]), in its floating dtype.
struct CudaLoop {
  template <template <class> class Cell, class... Tensors>
  static void run(const char* op, const Tensor& out, const Tensors&... tensors) {
    impl::launch_per_element<kCellThreads>(
        op, out, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
          using T = typename decltype(tag)::type;
          cell_kernel<<<blocks, kCellThreads, 0, stream>>>(numel, Cell<opmath_t<T>>{out.size(-1)},
                                                           impl::device_ptr<T>(tensors)...);
        });
  }
};

}  // namespace

void register_rnn_kernels() { CellKernels<CudaLoop>::register_for(DeviceType::CUDA); }

}  // namespace ember::cuda
