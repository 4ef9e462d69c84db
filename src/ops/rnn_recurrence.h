// One direction of one recurrent layer over a whole sequence, after its input projection: the
// part of an RNN, LSTM or GRU that must go step by step. ops/rnn.cpp runs it forward and records
// it as one autograd node; autograd/functions/rnn.cpp runs it backward.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/tensor.h"

namespace ember::ops {

enum class RecurrentCell { Lstm, Gru, RnnTanh, RnnRelu };

// Gates per hidden unit: the rows of W_ih and W_hh are this many blocks of H.
inline int64_t gate_count(RecurrentCell cell) {
  switch (cell) {
    case RecurrentCell::Lstm: return 4;
    case RecurrentCell::Gru: return 3;
    case RecurrentCell::RnnTanh:
    case RecurrentCell::RnnRelu: return 1;
  }
  return 1;  // unreachable: every cell is listed
}

// Note [One node per recurrent layer]
// A step of an LSTM as tensor ops records a GEMM with W_hh and the gate math per step, and its
// backward then adds a [4H, H] gradient into W_hh's once per step. Here the pass over the sequence
// is one node: forward runs each step as one GEMM into the step's gate rows and one fused cell
// kernel (Note [Fused recurrent cells]); backward runs the steps in reverse with one fused kernel
// and one GEMM each, keeping every step's gate gradients, and then finds W_hh's gradient (and
// W_hr's) as one GEMM over all steps. The input projection x W_ih^T + b stays outside, as one
// recorded GEMM over the whole sequence. Its gradient is not differentiable again (as cuDNN's
// RNN node in PyTorch): a create_graph pass through it throws.
struct RecurrenceInputs {
  Tensor projected;  // [T, B, G*H]: x W_ih^T + b_ih, plus b_hh but for the GRU
  Tensor w_hh;       // [G*H, H'], H' = the projection size, else H
  Tensor b_hh;       // the GRU's [3H] (its candidate gate scales b_hh's part by r), or undefined
  Tensor h0;         // [B, H']
  Tensor c0;         // the LSTM's [B, H]
  Tensor w_hr;       // the LSTM's projection [H', H], or undefined
  // For packed sequences (longest first), the rows that step t runs, non-increasing in t; the
  // rows past them carry their state through the step. Empty: every row, every step.
  std::vector<int64_t> batch_sizes;
};

struct RecurrenceOutputs {
  Tensor output;  // [T, B, H']: the hidden state after each step, in time order
  Tensor h;       // [B, H']: the state after the last step taken (t = 0 when reverse)
  Tensor c;       // the LSTM's [B, H]
};

// Runs the steps t = 0 .. T-1 (T-1 .. 0 when reverse), recorded as one node when any input
// requires grad.
RecurrenceOutputs recurrence(RecurrentCell cell, const RecurrenceInputs& in, bool reverse);

}  // namespace ember::ops
