// Backward formula of a recurrent layer's pass (see rnn.h): the steps in reverse, one fused cell
// kernel and one GEMM each, then the weight gradients as one GEMM over all steps.
#include "autograd/functions/rnn.h"

#include "core/check.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/ops.h"
#include "ember/reduce.h"
#include "ember/shape_ops.h"
#include "kernels/rnn_cell.h"

namespace ember::autograd::functions {

using ops::RecurrentCell;

const char* RecurrenceBackward::name(RecurrentCell cell) {
  switch (cell) {
    case RecurrentCell::Lstm: return "LstmBackward0";
    case RecurrentCell::Gru: return "GruBackward0";
    case RecurrentCell::RnnTanh: return "RnnTanhBackward0";
    case RecurrentCell::RnnRelu: return "RnnReluBackward0";
  }
  EMBER_INTERNAL_ASSERT(false, "unknown recurrent cell");
}

Grads RecurrenceBackward::operator()(const Context& ctx) const {
  EMBER_CHECK_T(NotImplementedError, !GradMode::is_enabled(), "[", name(cell),
                "] the gradient of a recurrent layer is not differentiable again (as cuDNN's in "
                "PyTorch): run backward without create_graph, or build the steps from cells and "
                "tensor ops");
  const Tensor &w_hh = ctx.saved(0), &h0 = ctx.saved(1), &c0 = ctx.saved(2), &w_hr = ctx.saved(3);
  const Tensor &work = ctx.saved(4), &output = ctx.saved(5), &cells = ctx.saved(6);
  const Tensor& raw = ctx.saved(7);
  const int64_t steps = output.size(0), batch = output.size(1), state_size = output.size(2);
  const int64_t gates = w_hh.size(0), hidden = gates / ops::gate_count(cell);
  const DeviceType device = output.device().type();
  const TensorOptions options = output.options();
  auto step_at = [&](int64_t s) { return reverse ? steps - 1 - s : s; };
  // The state step s started from, and all of them in time order for the weight gradients.
  auto previous = [&](const Tensor& states, const Tensor& first, int64_t s) {
    return s == 0 ? first.contiguous() : states[step_at(s - 1)];
  };
  auto all_previous = [&](const Tensor& states, const Tensor& first) {
    if (steps == 0) return states;
    return reverse ? cat({states.narrow(0, 1, steps - 1), first.unsqueeze(0)})
                   : cat({first.unsqueeze(0), states.narrow(0, 0, steps - 1)});
  };
  const Tensor& grad_output = ctx.grad(0);
  Tensor grad_h =
      ctx.grad(1).defined() ? ctx.grad(1).contiguous() : zeros({batch, state_size}, options);
  // The gradient reaching step t's output: from the layer's output and from step t + 1.
  auto grad_of_step = [&](int64_t t) {
    return (grad_output.defined() ? grad_output[t] + grad_h : grad_h).contiguous();
  };

  Grads grads(6);            // projected, w_hh, b_hh, h0, c0, w_hr
  Tensor grad_gates;         // [T, B, gates]: the projected input's gradient
  Tensor grad_hidden_gates;  // the GRU's [T, B, 3H] of h W_hh^T + b_hh
  switch (cell) {
    case RecurrentCell::Lstm: {
      const bool projects = w_hr.defined();
      grad_gates = empty({steps, batch, gates}, options);
      const Tensor grad_projected = projects ? empty_like(output) : Tensor();
      Tensor grad_c =
          ctx.grad(2).defined() ? ctx.grad(2).contiguous() : zeros({batch, hidden}, options);
      for (int64_t s = steps - 1; s >= 0; --s) {
        const int64_t t = step_at(s);
        Tensor grad_raw = grad_of_step(t);
        if (projects) {
          grad_projected[t].copy_(grad_raw);
          grad_raw = mm(grad_raw, w_hr);
        }
        const Tensor grad_c_prev = empty({batch, hidden}, options);
        kernels::lstm_cell_backward_stub(device, work[t], previous(cells, c0, s), cells[t],
                                         grad_raw, grad_c, grad_gates[t], grad_c_prev);
        grad_c = grad_c_prev;
        grad_h = mm(grad_gates[t], w_hh);
      }
      if (ctx.needs(4)) grads[4] = grad_c;
      if (projects && ctx.needs(5))
        grads[5] = mm(grad_projected.view({-1, state_size}).t(), raw.view({-1, hidden}));
      break;
    }
    case RecurrentCell::Gru: {
      grad_gates = empty({steps, batch, 3 * hidden}, options);
      grad_hidden_gates = empty_like(grad_gates);
      for (int64_t s = steps - 1; s >= 0; --s) {
        const int64_t t = step_at(s);
        const Tensor grad_h_direct = empty({batch, hidden}, options);
        kernels::gru_cell_backward_stub(device, work[t], previous(output, h0, s), grad_of_step(t),
                                        grad_gates[t], grad_hidden_gates[t], grad_h_direct);
        grad_h = addmm(grad_h_direct, grad_hidden_gates[t], w_hh);
      }
      if (ctx.needs(2)) grads[2] = grad_hidden_gates.sum({0, 1});
      break;
    }
    case RecurrentCell::RnnTanh:
    case RecurrentCell::RnnRelu:
      grad_gates = empty({steps, batch, hidden}, options);
      for (int64_t s = steps - 1; s >= 0; --s) {
        const int64_t t = step_at(s);
        const Tensor y = output[t];
        const Tensor slope = cell == RecurrentCell::RnnTanh ? 1 - y * y : (y > 0).to(y.dtype());
        grad_gates[t].copy_(grad_of_step(t) * slope);
        grad_h = mm(grad_gates[t], w_hh);
      }
      break;
  }
  if (ctx.needs(0)) grads[0] = grad_gates;
  if (ctx.needs(1)) {
    // Every step's gate gradient against the state it started from, in one GEMM.
    const Tensor& through_w_hh = cell == RecurrentCell::Gru ? grad_hidden_gates : grad_gates;
    grads[1] =
        mm(through_w_hh.view({-1, gates}).t(), all_previous(output, h0).reshape({-1, state_size}));
  }
  if (ctx.needs(3)) grads[3] = grad_h;
  return grads;
}

}  // namespace ember::autograd::functions
