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

// Launches cell(pointers..., row, unit) for every element of `out` ([B, H]), in its floating dtype.
template <template <class> class Cell, class... Tensors>
void run_cell(const char* op, const Tensor& out, const Tensors&... tensors) {
  impl::launch_per_element<kCellThreads>(
      op, out, [&](auto tag, unsigned blocks, cudaStream_t stream, int64_t numel) {
        using T = typename decltype(tag)::type;
        cell_kernel<<<blocks, kCellThreads, 0, stream>>>(numel, Cell<opmath_t<T>>{out.size(-1)},
                                                         impl::device_ptr<T>(tensors)...);
      });
}

void lstm_cell(const Tensor& gates, const Tensor& c_prev, const Tensor& work, const Tensor& c,
               const Tensor& h) {
  run_cell<LstmCellForward>("lstm_cell", h, gates, c_prev, work, c, h);
}

void lstm_cell_backward(const Tensor& gates, const Tensor& c_prev, const Tensor& c,
                        const Tensor& grad_h, const Tensor& grad_c, const Tensor& grad_gates,
                        const Tensor& grad_c_prev) {
  run_cell<LstmCellBackward>("lstm_cell backward", grad_c_prev, gates, c_prev, c, grad_h, grad_c,
                             grad_gates, grad_c_prev);
}

void gru_cell(const Tensor& input_gates, const Tensor& hidden_gates, const Tensor& h_prev,
              const Tensor& work, const Tensor& h) {
  run_cell<GruCellForward>("gru_cell", h, input_gates, hidden_gates, h_prev, work, h);
}

void gru_cell_backward(const Tensor& work, const Tensor& h_prev, const Tensor& grad_h,
                       const Tensor& grad_input_gates, const Tensor& grad_hidden_gates,
                       const Tensor& grad_h_prev) {
  run_cell<GruCellBackward>("gru_cell backward", grad_h_prev, work, h_prev, grad_h,
                            grad_input_gates, grad_hidden_gates, grad_h_prev);
}

}  // namespace

void register_rnn_kernels() {
  lstm_cell_stub.set(DeviceType::CUDA, &lstm_cell);
  lstm_cell_backward_stub.set(DeviceType::CUDA, &lstm_cell_backward);
  gru_cell_stub.set(DeviceType::CUDA, &gru_cell);
  gru_cell_backward_stub.set(DeviceType::CUDA, &gru_cell_backward);
}

}  // namespace ember::cuda
