// Backward formula of a recurrent layer's pass over a sequence (ops/rnn.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "autograd/record.h"
#include "ops/rnn_recurrence.h"

namespace ember::autograd::functions {

// LstmBackward0, GruBackward0, RnnTanhBackward0 and RnnReluBackward0: one node for one direction
// of one layer (Note [One node per recurrent layer]). Inputs: the projected input, w_hh, b_hh,
// h0, c0, w_hr; saves w_hh, h0, c0, w_hr, the cells' work (activated gates), the outputs, the
// LSTM's cell states and its unprojected hidden states.
struct RecurrenceBackward {
  ops::RecurrentCell cell;
  bool reverse;
  std::vector<int64_t> batch_sizes;  // as RecurrenceInputs::batch_sizes
  static const char* name(ops::RecurrentCell cell);
  Grads operator()(const Context& c) const;
};

}  // namespace ember::autograd::functions
