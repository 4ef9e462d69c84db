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
    // Step t runs the first active(t) rows; the others carry their state through unchanged.
    auto active = [&](int64_t t) { return in.batch_sizes.empty() ? batch : in.batch_sizes[t]; };
    auto carry = [&](const Tensor& to, const Tensor& from, int64_t rows) {
      if (rows < batch) to.narrow(0, rows, batch - rows).copy_(from.narrow(0, rows, batch - rows));
    };
    switch (cell) {
      case RecurrentCell::Lstm: {
        // The step's gates, x W_ih^T + b + h W_hh^T; work keeps them activated for backward.
        const Tensor input_gates = in.projected.contiguous();
        const Tensor step_gates = empty({batch, 4 * hidden}, options);
        work = empty({steps, batch, 4 * hidden}, options);
        output = empty({steps, batch, state_size}, options);
        cells = empty({steps, batch, hidden}, options);
        raw = projects ? zeros({steps, batch, hidden}, options) : output;
        c = in.c0.contiguous();
        for (int64_t s = 0; s < steps; ++s) {
          const int64_t t = step_at(s), rows = active(t);
          const Tensor gates = step_gates.narrow(0, 0, rows);
          gates.copy_(input_gates[t].narrow(0, 0, rows));
          gemm_into(h.narrow(0, 0, rows), w_hh_t, gates, 1);
          kernels::lstm_cell_stub(device, gates, c.narrow(0, 0, rows), work[t].narrow(0, 0, rows),
                                  cells[t].narrow(0, 0, rows), raw[t].narrow(0, 0, rows));
          if (projects)
            gemm_into(raw[t].narrow(0, 0, rows), in.w_hr.t(), output[t].narrow(0, 0, rows), 0);
          carry(output[t], h, rows);
          carry(cells[t], c, rows);
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
          const int64_t t = step_at(s), rows = active(t);
          const Tensor gates = step_gates.narrow(0, 0, rows), h_rows = h.narrow(0, 0, rows);
          gates.copy_(hidden_gates.narrow(0, 0, rows));
          gemm_into(h_rows, w_hh_t, gates, 1);
          kernels::gru_cell_stub(device, input_gates[t].narrow(0, 0, rows), gates, h_rows,
                                 work[t].narrow(0, 0, rows), output[t].narrow(0, 0, rows));
          carry(output[t], h, rows);
          h = output[t];
        }
        break;
      }
      case RecurrentCell::RnnTanh:
      case RecurrentCell::RnnRelu:
        // Each step's rows hold x W_ih^T + b, then the pre-activation, then the output.
        output = in.projected.contiguous().clone();
        for (int64_t s = 0; s < steps; ++s) {
          const int64_t t = step_at(s), rows = active(t);
          const Tensor y = output[t].narrow(0, 0, rows);
          gemm_into(h.narrow(0, 0, rows), w_hh_t, y, 1);
          if (cell == RecurrentCell::RnnTanh) {
            y.tanh_();
          } else {
            y.relu_();
          }
          carry(output[t], h, rows);
          h = output[t];
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
        autograd::functions::RecurrenceBackward{cell, reverse, in.batch_sizes});
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
                                const Tensor& h0, const Tensor& c0, bool reverse,
                                const std::vector<int64_t>& batch_sizes = {}) {
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
  // Either bias may be missing (the cell ops take each as optional).
  const bool folds_b_hh = cell != RecurrentCell::Gru && p.b_hh.defined();
  const Tensor bias = !folds_b_hh ? p.b_ih : p.b_ih.defined() ? p.b_ih + p.b_hh : p.b_hh;
  RecurrenceInputs in{linear(input, p.w_ih, bias),
                      p.w_hh,
                      cell == RecurrentCell::Gru ? p.b_hh : Tensor(),
                      h0,
                      c0,
                      p.w_hr,
                      batch_sizes};
  return recurrence(cell, in, reverse);
}

// Every layer and direction over input [T, B, features] ([B, T, ...] when batch_first), or the
// padded form of a packed sequence with its batch_sizes.
RecurrenceOutputs run_layers(RecurrentCell cell, const Tensor& input, const Tensor& hx,
                             const Tensor& cx, TensorList params, bool has_biases,
                             int64_t num_layers, double dropout_p, bool train, bool bidirectional,
                             bool batch_first, const std::vector<int64_t>& batch_sizes = {}) {
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
                                          lstm ? cx[at] : Tensor(), direction == 1, batch_sizes);
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

// batch_sizes of a packed sequence as a list: a 1-D int64 CPU tensor of positive, non-increasing
// counts, as _pack_padded_sequence makes it.
std::vector<int64_t> batch_size_list(const char* op, const Tensor& batch_sizes) {
  EMBER_CHECK_T(ValueError,
                batch_sizes.dim() == 1 && batch_sizes.scalar_type() == kInt64 &&
                    batch_sizes.device().is_cpu(),
                "[", op, "] batch_sizes must be a 1-D int64 CPU tensor, got a ", batch_sizes.dim(),
                "-D ", batch_sizes.scalar_type(), " tensor on ", batch_sizes.device());
  std::vector<int64_t> sizes = batch_sizes.contiguous().to_vector<int64_t>();
  for (size_t t = 0; t < sizes.size(); ++t)
    EMBER_CHECK_T(
        ValueError, sizes[t] > 0 && (t == 0 || sizes[t] <= sizes[t - 1]), "[", op,
        "] batch_sizes must be positive and non-increasing (longest sequence first), got ",
        batch_sizes.sizes(), " with ", sizes[t], " at step ", t);
  return sizes;
}

// data [N, *] of a packed sequence as [T, B, *], padding_value past each sequence's end, and
// total_length steps at least.
Tensor padded_from_packed(const Tensor& data, const std::vector<int64_t>& sizes,
                          double padding_value, int64_t total_length) {
  const int64_t batch = sizes.empty() ? 0 : sizes[0];
  std::vector<int64_t> row_shape(data.sizes().begin(), data.sizes().end());
  std::vector<Tensor> steps;
  int64_t offset = 0;
  for (int64_t rows : sizes) {
    const Tensor step = data.narrow(0, offset, rows);
    offset += rows;
    row_shape[0] = batch - rows;
    steps.push_back(rows == batch ? step
                                  : cat({step, full(row_shape, padding_value, data.options())}));
  }
  row_shape[0] = batch;
  while (static_cast<int64_t>(steps.size()) < total_length)
    steps.push_back(full(row_shape, padding_value, data.options()));
  return stack(steps);
}

// The inverse: the first sizes[t] rows of each step x[t], one step after the other.
Tensor packed_from_padded(const Tensor& x, const std::vector<int64_t>& sizes) {
  std::vector<Tensor> steps;
  for (size_t t = 0; t < sizes.size(); ++t)
    steps.push_back(x[static_cast<int64_t>(t)].narrow(0, 0, sizes[t]));
  return cat(steps);
}

// A whole pass over a packed sequence: padded, run with its batch sizes, packed again.
RecurrenceOutputs run_packed(RecurrentCell cell, const Tensor& data, const Tensor& batch_sizes,
                             const Tensor& hx, const Tensor& cx, TensorList params, bool has_biases,
                             int64_t num_layers, double dropout_p, bool train, bool bidirectional) {
  const std::vector<int64_t> sizes = batch_size_list(op_name(cell), batch_sizes);
  const Tensor padded = padded_from_packed(data, sizes, 0, 0);
  RecurrenceOutputs r = run_layers(cell, padded, hx, cx, params, has_biases, num_layers, dropout_p,
                                   train, bidirectional, false, sizes);
  r.output = packed_from_padded(r.output, sizes);
  return r;
}

}  // namespace
}  // namespace ops

using ops::RecurrentCell;

std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input, const Tensor& lengths,
                                                 bool batch_first) {
  const Tensor x = batch_first ? input.transpose(0, 1) : input;
  EMBER_CHECK_T(ValueError, lengths.dim() == 1 && lengths.size(0) == x.size(1),
                "[pack_padded_sequence] expected `lengths` to hold one length per sequence (",
                x.size(1), "), got shape ", lengths.sizes());
  const std::vector<int64_t> length = lengths.to(kInt64).cpu().contiguous().to_vector<int64_t>();
  for (size_t b = 0; b < length.size(); ++b) {
    EMBER_CHECK_T(ValueError, length[b] > 0,
                  "Length of all samples has to be greater than 0, but found an element in "
                  "'lengths' that is <= 0");
    EMBER_CHECK_T(ValueError, b == 0 || length[b] <= length[b - 1],
                  "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                  "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                  "pack_sequence to sidestep this requirement if you do not need ONNX "
                  "exportability.");
  }
  EMBER_CHECK_T(ValueError, length.empty() || length[0] <= x.size(0),
                "[pack_padded_sequence] the longest length, ", length.empty() ? 0 : length[0],
                ", exceeds the input's ", x.size(0), " steps");
  std::vector<int64_t> sizes;
  for (int64_t t = 0; !length.empty() && t < length[0]; ++t) {
    int64_t rows = 0;
    while (rows < static_cast<int64_t>(length.size()) && length[static_cast<size_t>(rows)] > t)
      ++rows;
    sizes.push_back(rows);
  }
  return {ops::packed_from_padded(x, sizes), tensor(sizes, kInt64)};
}

std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data, const Tensor& batch_sizes,
                                                bool batch_first, const Scalar& padding_value,
                                                int64_t total_length) {
  const std::vector<int64_t> sizes = ops::batch_size_list("pad_packed_sequence", batch_sizes);
  const Tensor padded =
      ops::padded_from_packed(data, sizes, padding_value.to<double>(), total_length);
  std::vector<int64_t> lengths(sizes.empty() ? 0 : static_cast<size_t>(sizes[0]), 0);
  for (int64_t rows : sizes)
    for (int64_t b = 0; b < rows; ++b) ++lengths[static_cast<size_t>(b)];
  return {batch_first ? padded.transpose(0, 1) : padded, tensor(lengths, kInt64)};
}

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& data, const Tensor& batch_sizes,
                                        TensorList hx, TensorList params, bool has_biases,
                                        int64_t num_layers, double dropout, bool train,
                                        bool bidirectional) {
  EMBER_CHECK_T(ValueError, hx.size() == 2, "[lstm] expected two hidden states (h0, c0), got ",
                hx.size());
  ops::RecurrenceOutputs r =
      ops::run_packed(RecurrentCell::Lstm, data, batch_sizes, hx[0], hx[1], params, has_biases,
                      num_layers, dropout, train, bidirectional);
  return {r.output, r.h, r.c};
}

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
  std::tuple<Tensor, Tensor> name(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx, \
                                  TensorList params, bool has_biases, int64_t num_layers,          \
                                  double dropout, bool train, bool bidirectional) {                \
    ops::RecurrenceOutputs r =                                                                     \
        ops::run_packed(RecurrentCell::Cell, data, batch_sizes, hx, Tensor(), params, has_biases,  \
                        num_layers, dropout, train, bidirectional);                                \
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
