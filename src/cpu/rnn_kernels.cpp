// CPU loops of the fused recurrent cells (Note [Fused recurrent cells] in kernels/rnn_cell.h): the
// shared functor over each thread's range of (batch row, hidden unit) elements.
#include <algorithm>
#include <tuple>

#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "ember/tensor.h"
#include "kernels/rnn_cell.h"

namespace ember::cpu {
namespace {

using namespace kernels;

// A cell element costs a few exponentials, about ten times a plain elementwise op's element.
constexpr int64_t kCellGrain = kGrainSize / 8;

// Rows [begin, end) of a step, a row's units in one loop the compiler vectorises.
template <class Cell, class... Pointers>
void cell_rows(const Cell cell, int64_t begin, int64_t end, Pointers... pointers) {
  const int64_t hidden = cell.hidden;
  for (int64_t row = begin; row < end; ++row)
    for (int64_t unit = 0; unit < hidden; ++unit) cell(pointers..., row, unit);
}

// Runs cell(pointers..., row, unit) for every element of `out` ([B, H]), in its floating dtype,
// whole rows per thread.
template <template <class> class Cell, class... Tensors>
void run_cell(const char* op, const Tensor& out, const Tensors&... tensors) {
  const int64_t hidden = out.size(-1), rows = hidden > 0 ? out.numel() / hidden : 0;
  dispatch_floating(out.scalar_type(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Cell<opmath_t<T>> cell{hidden};
    const auto pointers = std::make_tuple(tensors.template data_ptr<T>()...);
    parallel_for(rows, std::max<int64_t>(1, kCellGrain / std::max<int64_t>(hidden, 1)),
                 [&](int64_t begin, int64_t end) {
                   std::apply([&](auto*... p) { cell_rows(cell, begin, end, p...); }, pointers);
                 });
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
  lstm_cell_stub.set(DeviceType::CPU, &lstm_cell);
  lstm_cell_backward_stub.set(DeviceType::CPU, &lstm_cell_backward);
  gru_cell_stub.set(DeviceType::CPU, &gru_cell);
  gru_cell_backward_stub.set(DeviceType::CPU, &gru_cell_backward);
}

}  // namespace ember::cpu
