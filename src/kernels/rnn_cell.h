// The fused recurrent cells: what one hidden unit of one batch row goes through in an LSTM or GRU
// step once the matrix products are done, forward and backward, and the kernel entries that run
// them over a whole step. Compiled by g++ and nvcc.
#pragma once

#include <cmath>
#include <cstdint>

#include "ember/macros.h"
#include "kernels/dispatch_stub.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/functors.h"
#include "kernels/vector_math.h"

namespace ember {
class Tensor;
}

namespace ember::kernels {

// The cells are inlined into their loops even where the compiler finds them too large, so that the
// CPU loop over a row's units vectorises (a call per element keeps it scalar).
#if defined(__CUDACC__)
#define EMBER_CELL_INLINE __forceinline__
#else
#define EMBER_CELL_INLINE [[gnu::always_inline]] inline
#endif

// Note [Fused recurrent cells]
// As tensor ops an LSTM step's gate math is about fifteen kernels (four activations, the products
// and sums of the cell, tanh of the cell) and as many autograd nodes, each a pass over memory;
// here it is one pass forward and one backward. The products with the weights stay GEMMs
// (ops/rnn.cpp); what is fused is the elementwise rest. The math is PyTorch's (torch.nn.LSTM and
// GRU), in opmath_t, with the gate order i, f, g, o (LSTM) and r, z, n (GRU). Forward keeps the
// activated gates (and for the GRU the hidden part of n's pre-activation) for backward, as
// PyTorch's fused CUDA cells keep a workspace. Every operand is contiguous, of one dtype on one
// device; a functor computes one hidden unit of one batch row, and the gate rows hold their gates
// side by side ([B, 4H] or [B, 3H]). The float activations are vector_math.h's, so the CPU loop
// over a row's units vectorises. CPU loops (cpu/rnn_kernels.cpp) and CUDA kernels
// (cuda/rnn_kernels.cu) call the same functors.

// gates [B, 4H] = x W_ih^T + h W_hh^T + biases: writes the activated gates to work [B, 4H], and
// the cell state c and the hidden state h ([B, H]) from the previous cell state c_prev.
template <class M>
struct LstmCellForward {
  int64_t hidden;

  template <class T>
  EMBER_HOST_DEVICE EMBER_CELL_INLINE void operator()(const T* gates, const T* c_prev, T* work,
                                                      T* c, T* h, int64_t row, int64_t unit) const {
    const int64_t e = row * hidden + unit, at = row * 4 * hidden + unit;
    const M i = vector_sigmoid(static_cast<M>(gates[at]));
    const M f = vector_sigmoid(static_cast<M>(gates[at + hidden]));
    const M cand = vector_tanh(static_cast<M>(gates[at + 2 * hidden]));
    const M o = vector_sigmoid(static_cast<M>(gates[at + 3 * hidden]));
    const M cell = f * static_cast<M>(c_prev[e]) + i * cand;
    work[at] = convert<T>(i);
    work[at + hidden] = convert<T>(f);
    work[at + 2 * hidden] = convert<T>(cand);
    work[at + 3 * hidden] = convert<T>(o);
    c[e] = convert<T>(cell);
    h[e] = convert<T>(o * vector_tanh(cell));
  }
};

// From the activated gates, c_prev and c, and the gradients of h and c: the gradients of the
// gates' pre-activations ([B, 4H]) and of c_prev.
template <class M>
struct LstmCellBackward {
  int64_t hidden;

  template <class T>
  EMBER_HOST_DEVICE EMBER_CELL_INLINE void operator()(const T* gates, const T* c_prev, const T* c,
                                                      const T* grad_h, const T* grad_c,
                                                      T* grad_gates, T* grad_c_prev, int64_t row,
                                                      int64_t unit) const {
    const int64_t e = row * hidden + unit, at = row * 4 * hidden + unit;
    const M i = static_cast<M>(gates[at]), f = static_cast<M>(gates[at + hidden]);
    const M cand = static_cast<M>(gates[at + 2 * hidden]);
    const M o = static_cast<M>(gates[at + 3 * hidden]);
    const M tanh_c = vector_tanh(static_cast<M>(c[e]));
    const M gh = static_cast<M>(grad_h[e]);
    const M gc = static_cast<M>(grad_c[e]) + gh * o * (M(1) - tanh_c * tanh_c);
    grad_gates[at] = convert<T>(gc * cand * i * (M(1) - i));
    grad_gates[at + hidden] = convert<T>(gc * static_cast<M>(c_prev[e]) * f * (M(1) - f));
    grad_gates[at + 2 * hidden] = convert<T>(gc * i * (M(1) - cand * cand));
    grad_gates[at + 3 * hidden] = convert<T>(gh * tanh_c * o * (M(1) - o));
    grad_c_prev[e] = convert<T>(gc * f);
  }
};

// input_gates = x W_ih^T + b_ih and hidden_gates = h W_hh^T + b_hh ([B, 3H]); writes h from h_prev
// and keeps r, z, n and n's hidden part in work [B, 4H].
template <class M>
struct GruCellForward {
  int64_t hidden;

  template <class T>
  EMBER_HOST_DEVICE EMBER_CELL_INLINE void operator()(const T* input_gates, const T* hidden_gates,
                                                      const T* h_prev, T* work, T* h, int64_t row,
                                                      int64_t unit) const {
    const int64_t e = row * hidden + unit;
    const T* x = input_gates + row * 3 * hidden + unit;
    const T* hg = hidden_gates + row * 3 * hidden + unit;
    const M r = vector_sigmoid(static_cast<M>(x[0]) + static_cast<M>(hg[0]));
    const M z = vector_sigmoid(static_cast<M>(x[hidden]) + static_cast<M>(hg[hidden]));
    const M hn = static_cast<M>(hg[2 * hidden]);
    const M n = vector_tanh(static_cast<M>(x[2 * hidden]) + r * hn);
    T* w = work + row * 4 * hidden + unit;
    w[0] = convert<T>(r);
    w[hidden] = convert<T>(z);
    w[2 * hidden] = convert<T>(n);
    w[3 * hidden] = convert<T>(hn);
    h[e] = convert<T>(n + z * (static_cast<M>(h_prev[e]) - n));
  }
};

// From work and h_prev and the gradient of h: the gradients of input_gates and hidden_gates
// ([B, 3H]) and the part of h_prev's gradient that does not go through W_hh.
template <class M>
struct GruCellBackward {
  int64_t hidden;

  template <class T>
  EMBER_HOST_DEVICE EMBER_CELL_INLINE void operator()(const T* work, const T* h_prev,
                                                      const T* grad_h, T* grad_input_gates,
                                                      T* grad_hidden_gates, T* grad_h_prev,
                                                      int64_t row, int64_t unit) const {
    const int64_t e = row * hidden + unit;
    const T* w = work + row * 4 * hidden + unit;
    const M r = static_cast<M>(w[0]), z = static_cast<M>(w[hidden]);
    const M n = static_cast<M>(w[2 * hidden]), hn = static_cast<M>(w[3 * hidden]);
    const M gh = static_cast<M>(grad_h[e]);
    const M gn = gh * (M(1) - z) * (M(1) - n * n);
    const M gz = gh * (static_cast<M>(h_prev[e]) - n) * z * (M(1) - z);
    const M gr = gn * hn * r * (M(1) - r);
    T* gx = grad_input_gates + row * 3 * hidden + unit;
    T* ghg = grad_hidden_gates + row * 3 * hidden + unit;
    gx[0] = ghg[0] = convert<T>(gr);
    gx[hidden] = ghg[hidden] = convert<T>(gz);
    gx[2 * hidden] = convert<T>(gn);
    ghg[2 * hidden] = convert<T>(gn * r);
    grad_h_prev[e] = convert<T>(gh * z);
  }
};

// One step over a whole batch; the tensors as the functors above name them.
using LstmCellFn = void (*)(const Tensor& gates, const Tensor& c_prev, const Tensor& work,
                            const Tensor& c, const Tensor& h);
using LstmCellBackwardFn = void (*)(const Tensor& gates, const Tensor& c_prev, const Tensor& c,
                                    const Tensor& grad_h, const Tensor& grad_c,
                                    const Tensor& grad_gates, const Tensor& grad_c_prev);
using GruCellFn = void (*)(const Tensor& input_gates, const Tensor& hidden_gates,
                           const Tensor& h_prev, const Tensor& work, const Tensor& h);
using GruCellBackwardFn = void (*)(const Tensor& work, const Tensor& h_prev, const Tensor& grad_h,
                                   const Tensor& grad_input_gates, const Tensor& grad_hidden_gates,
                                   const Tensor& grad_h_prev);
inline DispatchStub<LstmCellFn> lstm_cell_stub{"lstm_cell"};
inline DispatchStub<LstmCellBackwardFn> lstm_cell_backward_stub{"lstm_cell backward"};
inline DispatchStub<GruCellFn> gru_cell_stub{"gru_cell"};
inline DispatchStub<GruCellBackwardFn> gru_cell_backward_stub{"gru_cell backward"};

// The four entries of a backend, which supplies only its loop:
// Loop::template run<Cell>(op, out, tensors...) calls Cell's functor for every element of `out`
// ([B, H]) with the tensors' data in out's dtype.
template <class Loop>
struct CellKernels {
  static void lstm_cell(const Tensor& gates, const Tensor& c_prev, const Tensor& work,
                        const Tensor& c, const Tensor& h) {
    Loop::template run<LstmCellForward>("lstm_cell", h, gates, c_prev, work, c, h);
  }
  static void lstm_cell_backward(const Tensor& gates, const Tensor& c_prev, const Tensor& c,
                                 const Tensor& grad_h, const Tensor& grad_c,
                                 const Tensor& grad_gates, const Tensor& grad_c_prev) {
    Loop::template run<LstmCellBackward>("lstm_cell backward", grad_c_prev, gates, c_prev, c,
                                         grad_h, grad_c, grad_gates, grad_c_prev);
  }
  static void gru_cell(const Tensor& input_gates, const Tensor& hidden_gates, const Tensor& h_prev,
                       const Tensor& work, const Tensor& h) {
    Loop::template run<GruCellForward>("gru_cell", h, input_gates, hidden_gates, h_prev, work, h);
  }
  static void gru_cell_backward(const Tensor& work, const Tensor& h_prev, const Tensor& grad_h,
                                const Tensor& grad_input_gates, const Tensor& grad_hidden_gates,
                                const Tensor& grad_h_prev) {
    Loop::template run<GruCellBackward>("gru_cell backward", grad_h_prev, work, h_prev, grad_h,
                                        grad_input_gates, grad_hidden_gates, grad_h_prev);
  }
  static void register_for(DeviceType device) {
    lstm_cell_stub.set(device, &lstm_cell);
    lstm_cell_backward_stub.set(device, &lstm_cell_backward);
    gru_cell_stub.set(device, &gru_cell);
    gru_cell_backward_stub.set(device, &gru_cell_backward);
  }
};

}  // namespace ember::kernels
