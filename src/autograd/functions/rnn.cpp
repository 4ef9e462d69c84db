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
  auto active = [&](int64_t t) { return batch_sizes.empty() ? batch : batch_sizes[t]; };
  auto head = [](const Tensor& t, int64_t rows) { return t.narrow(0, 0, rows); };
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
  // The gradient reaching step t's state: from the layer's output and from step t + 1.
  auto grad_of_step = [&](int64_t t) {
    return (grad_output.defined() ? grad_output[t] + grad_h : grad_h).contiguous();
  };
  // A step's rows past active(t) only carried their state: its gradient passes through to the
  // state before, and their gate gradients stay zero. `from_gates` is the gradient the active rows
  // send back through W_hh (and the GRU's direct path).
  auto carry_back = [&](const Tensor& grad_state, const Tensor& from_gates, int64_t rows) {
    if (rows == batch) return from_gates;
    return cat({from_gates, grad_state.narrow(0, rows, batch - rows)});
  };

  Grads grads(6);            // projected, w_hh, b_hh, h0, c0, w_hr
  Tensor grad_gates;         // [T, B, gates]: the projected input's gradient
  Tensor grad_hidden_gates;  // the GRU's [T, B, 3H] of h W_hh^T + b_hh
  switch (cell) {
    case RecurrentCell::Lstm: {
      const bool projects = w_hr.defined();
      grad_gates = zeros({steps, batch, gates}, options);
      const Tensor grad_projected = projects ? zeros_like(output) : Tensor();
      Tensor grad_c =
          ctx.grad(2).defined() ? ctx.grad(2).contiguous() : zeros({batch, hidden}, options);
      for (int64_t s = steps - 1; s >= 0; --s) {
        const int64_t t = step_at(s), rows = active(t);
        const Tensor grad_state = grad_of_step(t);
        Tensor grad_raw = head(grad_state, rows);
        if (projects) {
          head(grad_projected[t], rows).copy_(grad_raw);
          grad_raw = mm(grad_raw, w_hr);
        }
        const Tensor grad_c_prev = empty({rows, hidden}, options);
        kernels::lstm_cell_backward_stub(device, head(work[t], rows),
                                         head(previous(cells, c0, s), rows), head(cells[t], rows),
                                         grad_raw.contiguous(), head(grad_c, rows).contiguous(),
                                         head(grad_gates[t], rows), grad_c_prev);
        grad_c = carry_back(grad_c, grad_c_prev, rows);
        grad_h = carry_back(grad_state, mm(head(grad_gates[t], rows), w_hh), rows);
      }
      if (ctx.needs(4)) grads[4] = grad_c;
      if (projects && ctx.needs(5))
        grads[5] = mm(grad_projected.view({-1, state_size}).t(), raw.view({-1, hidden}));
      break;
    }
    case RecurrentCell::Gru: {
      grad_gates = zeros({steps, batch, 3 * hidden}, options);
      grad_hidden_gates = zeros_like(grad_gates);
      for (int64_t s = steps - 1; s >= 0; --s) {
        const int64_t t = step_at(s), rows = active(t);
        const Tensor grad_state = grad_of_step(t);
        const Tensor grad_h_direct = empty({rows, hidden}, options);
        kernels::gru_cell_backward_stub(device, head(work[t], rows),
                                        head(previous(output, h0, s), rows), head(grad_state, rows),
                                        head(grad_gates[t], rows), head(grad_hidden_gates[t], rows),
                                        grad_h_direct);
        grad_h = carry_back(grad_state,
                            addmm(grad_h_direct, head(grad_hidden_gates[t], rows), w_hh), rows);
      }
      if (ctx.needs(2)) grads[2] = grad_hidden_gates.sum({0, 1});
      break;
    }
    case RecurrentCell::RnnTanh:
    case RecurrentCell::RnnRelu:
      grad_gates = zeros({steps, batch, hidden}, options);
      for (int64_t s = steps - 1; s >= 0; --s) {
        const int64_t t = step_at(s), rows = active(t);
        const Tensor grad_state = grad_of_step(t);
        const Tensor y = head(output[t], rows);
        const Tensor slope = cell == RecurrentCell::RnnTanh ? 1 - y * y : (y > 0).to(y.dtype());
        head(grad_gates[t], rows).copy_(head(grad_state, rows) * slope);
        grad_h = carry_back(grad_state, mm(head(grad_gates[t], rows), w_hh), rows);
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
