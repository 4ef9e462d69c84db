// The recurrent ops (ember/rnn_ops.h): a layer is its input projection, one GEMM over the whole
// sequence, then the recurrence (ops/rnn_recurrence.h), which runs step by step with fused cells
// and is recorded as one node (Note [One node per recurrent layer]).
#include <string>
#include <vector>

#include "autograd/functions/rnn.h"
#include "autograd/record.h"
#include "core/check.h"
#include "ember/factory.h"
#include "ember/linalg.h"
#include "ember/nn_ops.h"
#include "ember/ops.h"
#include "ember/rnn_ops.h"
#include "ember/shape_ops.h"
#include "kernels/linalg_stubs.h"
#include "kernels/rnn_cell.h"
#include "kernels/tensor_iter.h"
#include "ops/rnn_recurrence.h"

namespace ember {
namespace ops {
namespace {

const char* op_name(RecurrentCell cell) {
  switch (cell) {
    case RecurrentCell::Lstm: return "lstm";
    case RecurrentCell::Gru: return "gru";
    case RecurrentCell::RnnTanh: return "rnn_tanh";
    case RecurrentCell::RnnRelu: return "rnn_relu";
  }
  EMBER_INTERNAL_ASSERT(false, "unknown recurrent cell");
}

// c = a @ b + beta * c, c contiguous: a step's GEMM writes straight into its rows of the pass's
// buffers.
void gemm_into(const Tensor& a, const Tensor& b, const Tensor& c, double beta) {
  kernels::gemm_stub(c.device().type(), a, b, c, 1.0, beta);
}

// One device, one floating dtype (the kernels take raw pointers), and the shapes the kernels
// index by.
void check_recurrence(RecurrentCell cell, const RecurrenceInputs& in) {
  const char* op = op_name(cell);
  kernels::common_device(op, {&in.projected, &in.w_hh, &in.b_hh, &in.h0, &in.c0, &in.w_hr},
                         {"input", "w_hh", "b_hh", "hx", "cx", "w_hr"});
  const ScalarType dtype = in.projected.scalar_type();
  EMBER_CHECK_T(TypeError, isFloatingType(dtype), "[", op,
                "] expected a floating-point input, got ", dtype);
  for (const Tensor* t : {&in.w_hh, &in.b_hh, &in.h0, &in.c0, &in.w_hr})
    EMBER_CHECK_T(TypeError, !t->defined() || t->scalar_type() == dtype, "[", op,
                  "] expected every weight and state to have the input's dtype ", dtype, ", got ",
                  t->scalar_type(), "; convert them with .to(k", dtype, ")");
}

}  // namespace

RecurrenceOutputs recurrence(RecurrentCell cell, const RecurrenceInputs& in, bool reverse) {
  check_recurrence(cell, in);
  const int64_t steps = in.projected.size(0), batch = in.projected.size(1);
  const int64_t hidden = in.w_hh.size(0) / gate_count(cell), state_size = in.w_hh.size(1);
  const DeviceType device = in.projected.device().type();
  const bool lstm = cell == RecurrentCell::Lstm, projects = in.w_hr.defined();
  Tensor output, work, cells, raw, h, c;
  {
    NoGradGuard no_grad;  // the steps' own ops are not recorded: the node below stands for them
    const TensorOptions options = in.projected.options();
    const Tensor w_hh_t = in.w_hh.t();
    h = in.h0.contiguous();
    auto step_at = [&](int64_t s) { return reverse ? steps - 1 - s : s; };
    switch (cell) {
      case RecurrentCell::Lstm: {
        // The step's gates, x W_ih^T + b + h W_hh^T; work keeps them activated for backward.
        const Tensor input_gates = in.projected.contiguous();
        const Tensor step_gates = empty({batch, 4 * hidden}, options);
        work = empty({steps, batch, 4 * hidden}, options);
        output = empty({steps, batch, state_size}, options);
        cells = empty({steps, batch, hidden}, options);
        raw = projects ? empty({steps, batch, hidden}, options) : output;
        c = in.c0.contiguous();
        for (int64_t s = 0; s < steps; ++s) {
          const int64_t t = step_at(s);
          step_gates.copy_(input_gates[t]);
          gemm_into(h, w_hh_t, step_gates, 1);
          kernels::lstm_cell_stub(device, step_gates, c, work[t], cells[t], raw[t]);
          if (projects) gemm_into(raw[t], in.w_hr.t(), output[t], 0);
          h = output[t];
          c = cells[t];
        }
        break;
      }
      case RecurrentCell::Gru: {
        const Tensor input_gates = in.projected.contiguous();
        const Tensor hidden_gates = in.b_hh.defined()
                                        ? in.b_hh.expand({batch, 3 * hidden}).contiguous()
                                        : zeros({batch, 3 * hidden}, options);
        const Tensor step_gates = empty_like(hidden_gates);
        work = empty({steps, batch, 4 * hidden}, options);
        output = empty({steps, batch, hidden}, options);
        for (int64_t s = 0; s < steps; ++s) {
          const int64_t t = step_at(s);
          step_gates.copy_(hidden_gates);
          gemm_into(h, w_hh_t, step_gates, 1);
          kernels::gru_cell_stub(device, input_gates[t], step_gates, h, work[t], output[t]);
          h = output[t];
        }
        break;
      }
      case RecurrentCell::RnnTanh:
      case RecurrentCell::RnnRelu:
        // Each step's rows hold x W_ih^T + b, then the pre-activation, then the output.
        output = in.projected.contiguous().clone();
        for (int64_t s = 0; s < steps; ++s) {
          const Tensor y = output[step_at(s)];
          gemm_into(h, w_hh_t, y, 1);
          if (cell == RecurrentCell::RnnTanh) {
            y.tanh_();
          } else {
            y.relu_();
          }
          h = y;
        }
        break;
    }
    h = h.clone();  // the final states are tensors of their own, not views of the outputs
    if (lstm) c = c.clone();
  }
  RecurrenceOutputs out{output, h, c};
  if (autograd::needs_grad(in.projected, in.w_hh, in.b_hh, in.h0, in.c0, in.w_hr)) {
    std::vector<Tensor> outputs{out.output, out.h};
    if (lstm) outputs.push_back(out.c);
    autograd::record(
        autograd::functions::RecurrenceBackward::name(cell), outputs,
        {in.projected, in.w_hh, in.b_hh, in.h0, in.c0, in.w_hr},
        {in.w_hh, in.h0, in.c0, in.w_hr, work, output, cells, projects ? raw : Tensor()},
        autograd::functions::RecurrenceBackward{cell, reverse});
  }
  return out;
}

namespace {

// The weights of one direction of one layer, as the flat params list gives them.
struct LayerParams {
  Tensor w_ih, w_hh, b_ih, b_hh, w_hr;
};

std::vector<LayerParams> unpack_params(RecurrentCell cell, TensorList params, bool has_biases,
                                       bool has_projections, int64_t num_layers,
                                       int64_t directions) {
  const size_t per_layer = 2 + (has_biases ? 2 : 0) + (has_projections ? 1 : 0);
  const size_t count = per_layer * static_cast<size_t>(num_layers * directions);
  EMBER_CHECK_T(ValueError, num_layers >= 1 && params.size() == count, "[", op_name(cell),
                "] expected ", count, " weight tensors (", per_layer, " for each of ", num_layers,
                " layers and ", directions, " directions), got ", params.size());
  std::vector<LayerParams> layers;
  for (size_t at = 0; at < params.size(); at += per_layer) {
    LayerParams p{params[at], params[at + 1], {}, {}, {}};
    if (has_biases) {
      p.b_ih = params[at + 2];
      p.b_hh = params[at + 3];
    }
    if (has_projections) p.w_hr = params[at + per_layer - 1];
    layers.push_back(p);
  }
  return layers;
}

// One direction of one layer: the input projection over the whole sequence (the GRU keeps b_hh
// apart: its candidate gate scales that part by r), then the recurrence.
RecurrenceOutputs run_direction(RecurrentCell cell, const Tensor& input, const LayerParams& p,
                                const Tensor& h0, const Tensor& c0, bool reverse) {
  const char* op = op_name(cell);
  EMBER_CHECK_T(ValueError, input.size(-1) == p.w_ih.size(1), "[", op,
                "] input has inconsistent input_size: got ", input.size(-1), " expected ",
                p.w_ih.size(1));
  const int64_t state_size = p.w_hh.size(1);
  EMBER_CHECK_T(ValueError, h0.dim() == 2 && h0.size(0) == input.size(1), "[", op,
                "] input batch size ", input.size(1), " doesn't match hidden batch size ",
                h0.dim() == 2 ? h0.size(0) : -1);
  EMBER_CHECK_T(ValueError, h0.size(1) == state_size, "[", op,
                "] hidden has inconsistent hidden_size: got ", h0.size(1), ", expected ",
                state_size);
  const bool folds_b_hh = cell != RecurrentCell::Gru && p.b_hh.defined();
  const Tensor bias = folds_b_hh ? p.b_ih + p.b_hh : p.b_ih;
  RecurrenceInputs in{linear(input, p.w_ih, bias),
                      p.w_hh,
                      cell == RecurrentCell::Gru ? p.b_hh : Tensor(),
                      h0,
                      c0,
                      p.w_hr};
  return recurrence(cell, in, reverse);
}

// Every layer and direction over input [T, B, features] ([B, T, ...] when batch_first).
RecurrenceOutputs run_layers(RecurrentCell cell, const Tensor& input, const Tensor& hx,
                             const Tensor& cx, TensorList params, bool has_biases,
                             int64_t num_layers, double dropout_p, bool train, bool bidirectional,
                             bool batch_first) {
  const char* op = op_name(cell);
  EMBER_CHECK_T(ValueError, input.dim() == 3, "[", op,
                "] expected a 3-D input ([seq_len, batch, input_size], or [batch, seq_len, "
                "input_size] with batch_first), got ",
                input.dim(), "-D");
  const int64_t directions = bidirectional ? 2 : 1;
  const bool lstm = cell == RecurrentCell::Lstm;
  EMBER_CHECK_T(ValueError, hx.dim() == 3 && hx.size(0) == num_layers * directions, "[", op,
                "] expected the initial hidden state to be [", num_layers * directions,
                ", batch, hidden_size] (layers * directions first), got ", hx.sizes());
  const bool has_projections = lstm && hx.size(2) != cx.size(2);
  const std::vector<LayerParams> layers =
      unpack_params(cell, params, has_biases, has_projections, num_layers, directions);
  Tensor x = batch_first ? input.transpose(0, 1) : input;
  std::vector<Tensor> hs, cs;
  for (int64_t layer = 0; layer < num_layers; ++layer) {
    std::vector<Tensor> outputs;
    for (int64_t direction = 0; direction < directions; ++direction) {
      const int64_t at = layer * directions + direction;
      RecurrenceOutputs r = run_direction(cell, x, layers[static_cast<size_t>(at)], hx[at],
                                          lstm ? cx[at] : Tensor(), direction == 1);
      outputs.push_back(r.output);
      hs.push_back(r.h);
      if (lstm) cs.push_back(r.c);
    }
    x = directions == 2 ? cat(outputs, 2) : outputs[0];
    if (dropout_p > 0 && train && layer + 1 < num_layers) x = ember::dropout(x, dropout_p, true);
  }
  return {batch_first ? x.transpose(0, 1) : x, stack(hs), lstm ? stack(cs) : Tensor()};
}

// One step of a cell: the layer machinery over a sequence of one.
RecurrenceOutputs cell_step(RecurrentCell cell, const Tensor& input, const Tensor& hx,
                            const Tensor& cx, const Tensor& w_ih, const Tensor& w_hh,
                            const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  EMBER_CHECK_T(ValueError, input.dim() == 2, "[", op_name(cell),
                "_cell] expected a 2-D input [batch, input_size], got ", input.dim(), "-D");
  const LayerParams p{w_ih, w_hh, b_ih.value_or(Tensor()), b_hh.value_or(Tensor()), {}};
  return run_direction(cell, input.unsqueeze(0), p, hx, cx, /*reverse=*/false);
}

}  // namespace
}  // namespace ops

using ops::RecurrentCell;

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, TensorList hx, TensorList params,
                                        bool has_biases, int64_t num_layers, double dropout,
                                        bool train, bool bidirectional, bool batch_first) {
  EMBER_CHECK_T(ValueError, hx.size() == 2, "[lstm] expected two hidden states (h0, c0), got ",
                hx.size());
  ops::RecurrenceOutputs r =
      ops::run_layers(RecurrentCell::Lstm, input, hx[0], hx[1], params, has_biases, num_layers,
                      dropout, train, bidirectional, batch_first);
  return {r.output, r.h, r.c};
}

#define EMBER_SINGLE_STATE_RNN(name, Cell)                                                         \
  std::tuple<Tensor, Tensor> name(const Tensor& input, const Tensor& hx, TensorList params,        \
                                  bool has_biases, int64_t num_layers, double dropout, bool train, \
                                  bool bidirectional, bool batch_first) {                          \
    ops::RecurrenceOutputs r =                                                                     \
        ops::run_layers(RecurrentCell::Cell, input, hx, Tensor(), params, has_biases, num_layers,  \
                        dropout, train, bidirectional, batch_first);                               \
    return {r.output, r.h};                                                                        \
  }                                                                                                \
  Tensor name##_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,                    \
                     const Tensor& w_hh, const std::optional<Tensor>& b_ih,                        \
                     const std::optional<Tensor>& b_hh) {                                          \
    return ops::cell_step(RecurrentCell::Cell, input, hx, Tensor(), w_ih, w_hh, b_ih, b_hh).h;     \
  }
EMBER_SINGLE_STATE_RNN(gru, Gru)
EMBER_SINGLE_STATE_RNN(rnn_tanh, RnnTanh)
EMBER_SINGLE_STATE_RNN(rnn_relu, RnnRelu)
#undef EMBER_SINGLE_STATE_RNN

std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih,
                                     const Tensor& w_hh, const std::optional<Tensor>& b_ih,
                                     const std::optional<Tensor>& b_hh) {
  EMBER_CHECK_T(ValueError, hx.size() == 2, "[lstm_cell] expected two hidden states (hx, cx), got ",
                hx.size());
  ops::RecurrenceOutputs r =
      ops::cell_step(RecurrentCell::Lstm, input, hx[0], hx[1], w_ih, w_hh, b_ih, b_hh);
  return {r.h, r.c};
}

}  // namespace ember
