#!/usr/bin/env python3
"""Writes tests/nn/rnn_reference.h: what rnn_test.cpp expects, from torch.nn's RNN, LSTM, GRU and
their cells in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_rnn_reference.py
Each case fills the module's parameters, in named_parameters() order, with
0.5 sin(0.37 k + 0.11 i) (k the flat index, i the parameter's position), the input with
cos(0.23 k) (and an initial state, where given, with 0.3 sin(0.19 k)), and takes as loss the sum of
each output times cos(0.31 k + j) (j the output's position). The header holds the outputs and the
gradients of the input and of the parameters the case names. rnn_test.cpp builds the same cases.
"""
import os

import torch
from reference_header import case_initializer, write_reference_header

torch.set_default_dtype(torch.float64)
nn = torch.nn
pack = nn.utils.rnn.pack_padded_sequence
pad = nn.utils.rnn.pad_packed_sequence


def filled(shape, f):
    n = 1
    for s in shape:
        n *= s
    return f(torch.arange(n, dtype=torch.float64)).reshape(shape)


def run(name, module, input_shape, forward, grads, state_shapes=()):
    for i, (_, p) in enumerate(module.named_parameters()):
        with torch.no_grad():
            p.copy_(filled(p.shape, lambda k: 0.5 * torch.sin(0.37 * k + 0.11 * i)))
    x = filled(input_shape, lambda k: torch.cos(0.23 * k)).requires_grad_()
    states = [filled(s, lambda k: 0.3 * torch.sin(0.19 * k)) for s in state_shapes]
    outputs = forward(module, x, states)
    loss = sum((o * filled(o.shape, lambda k: torch.cos(0.31 * k + j))).sum()
               for j, o in enumerate(outputs))
    loss.backward()
    params = dict(module.named_parameters())
    rows = [(f"output{j}", o) for j, o in enumerate(outputs)]
    rows.append(("grad:input", x.grad))
    rows += [(f"grad:{p}", params[p].grad) for p in grads]
    return case_initializer(name, rows)


cases = [
    run("lstm_2layer_bidirectional", nn.LSTM(3, 2, num_layers=2, bidirectional=True), (3, 2, 3),
        lambda m, x, s: (lambda o: (o[0], o[1][0], o[1][1]))(m(x)),
        ["weight_hh_l0", "weight_ih_l1_reverse", "bias_hh_l1"]),
    run("lstm_proj_batch_first", nn.LSTM(3, 4, proj_size=2, batch_first=True), (2, 3, 3),
        lambda m, x, s: (lambda o: (o[0], o[1][0], o[1][1]))(m(x, (s[0], s[1]))),
        ["weight_hr_l0", "weight_hh_l0", "bias_ih_l0"], state_shapes=[(1, 2, 2), (1, 2, 4)]),
    run("gru_2layer_bidirectional", nn.GRU(3, 2, num_layers=2, bidirectional=True), (3, 2, 3),
        lambda m, x, s: m(x), ["weight_hh_l0", "bias_hh_l0", "bias_ih_l1_reverse"]),
    run("rnn_tanh_with_state", nn.RNN(3, 2), (4, 2, 3), lambda m, x, s: m(x, s[0]),
        ["weight_hh_l0", "bias_ih_l0"], state_shapes=[(1, 2, 2)]),
    run("rnn_relu_2layer_nobias", nn.RNN(3, 2, num_layers=2, nonlinearity="relu", bias=False),
        (3, 2, 3), lambda m, x, s: m(x), ["weight_hh_l1", "weight_ih_l0"]),
    run("lstm_packed_bidirectional", nn.LSTM(3, 2, bidirectional=True), (4, 3, 3),
        lambda m, x, s: (lambda o: (pad(o[0])[0], o[1][0], o[1][1]))(
            m(pack(x, torch.tensor([2, 4, 3]), enforce_sorted=False))),
        ["weight_hh_l0", "weight_ih_l0_reverse"]),
    run("gru_packed_2layer", nn.GRU(3, 2, num_layers=2), (4, 3, 3),
        lambda m, x, s: (lambda o: (pad(o[0], total_length=5)[0], o[1]))(
            m(pack(x, torch.tensor([4, 3, 1])), s[0])),
        ["weight_hh_l1", "bias_hh_l0"], state_shapes=[(2, 3, 2)]),
    run("lstm_cell", nn.LSTMCell(3, 2), (2, 3), lambda m, x, s: m(x, (s[0], s[1])),
        ["weight_hh", "bias_ih"], state_shapes=[(2, 2), (2, 2)]),
    run("gru_cell", nn.GRUCell(3, 2), (2, 3), lambda m, x, s: (m(x, s[0]),),
        ["weight_hh", "bias_hh"], state_shapes=[(2, 2)]),
    run("rnn_cell_relu_unbatched", nn.RNNCell(3, 2, nonlinearity="relu"), (3,),
        lambda m, x, s: (m(x),), ["weight_ih"]),
]

write_reference_header(
    "gen_rnn_reference.py",
    "Outputs and gradients of torch.nn's recurrent layers and cells for rnn_test.cpp's cases.",
    "rnn_reference", cases)
