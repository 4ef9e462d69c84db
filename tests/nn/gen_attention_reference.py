#!/usr/bin/env python3
"""Writes tests/nn/attention_reference.h: what attention_test.cpp expects, from torch 1.13's
MultiheadAttention, TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder and
Transformer, and from scaled_dot_product_attention's formula (torch 1.13 has no public one:
softmax(q k^T / sqrt(E) + bias) v, as PyTorch 2.x documents it), all in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_attention_reference.py
Each case fills its i-th input with cos(0.23 k + 0.7 i) (k the flat index) and the module's i-th
parameter, in named_parameters() order, with 0.3 cos(0.37 k + 0.11 i); dropout is 0 and the modules
train. The loss is the sum of each output times cos(0.31 k + j) (j the output's position). The
header holds the outputs, the gradients ("grad0", ... of the inputs, "grad_<name>" of parameters)
and, for the modules, each parameter's shape under "<position>:<name>".
"""
import math

import torch
from reference_header import case_initializer, write_reference_header

torch.set_default_dtype(torch.float64)
nn = torch.nn


def wave(shape, step, phase):
    n = math.prod(shape)
    return torch.cos(step * torch.arange(n, dtype=torch.float64) + phase).reshape(shape)


def fill_parameters(module):
    module.zero_grad(set_to_none=True)
    with torch.no_grad():
        for i, (_, p) in enumerate(module.named_parameters()):
            p.copy_(0.3 * wave(p.shape, 0.37, 0.11 * i))


def causal_bias(n):
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)


def run(name, shapes, forward, module=None, grad_parameters=()):
    if module is not None:
        fill_parameters(module)
    xs = [wave(s, 0.23, 0.7 * i).requires_grad_() for i, s in enumerate(shapes)]
    outputs = [o for o in forward(*xs) if o is not None]
    loss = sum((o * torch.cos(0.31 * torch.arange(o.numel()).reshape(o.shape) + j)).sum()
               for j, o in enumerate(outputs))
    loss.backward()
    rows = [(f"output{j}", o) for j, o in enumerate(outputs)]
    rows += [(f"grad{i}", x.grad) for i, x in enumerate(xs)]
    if module is not None:
        parameters = dict(module.named_parameters())
        rows += [(f"grad_{p}", parameters[p].grad) for p in grad_parameters]
        rows += [(f"{i:02d}:{n}", torch.tensor(p.shape, dtype=torch.float64))
                 for i, (n, p) in enumerate(module.named_parameters())]
    return case_initializer(name, rows)


def sdpa(q, k, v, bias):
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias, dim=-1)
    return weights @ v


# [3, 5]: key j is kept for query i when (i + 2 j) % 3 != 0; every query keeps some key.
keep = torch.tensor([[(i + 2 * j) % 3 != 0 for j in range(5)] for i in range(3)])
padding = torch.tensor([[False, False, True], [False, True, True]])  # [N = 2, S = 3]
memory_padding = torch.tensor([[False, False, False, True, True], [False] * 5])

mha = nn.MultiheadAttention(4, 2)
mha_kv = nn.MultiheadAttention(4, 2, bias=True, add_bias_kv=True, add_zero_attn=True, kdim=3,
                               vdim=5)
mha_unbatched = nn.MultiheadAttention(6, 3, bias=False)
encoder_layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0)
decoder_layer = nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0,
                                           activation="gelu")
encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6, 0.0), 2, nn.LayerNorm(4))
transformer = nn.Transformer(4, 2, 1, 1, 6, 0.0)

cases = [
    run("sdpa_float_mask", [(2, 3, 4), (2, 5, 4), (2, 5, 3), (3, 5)],
        lambda q, k, v, m: (sdpa(q, k, v, m),)),
    run("sdpa_bool_mask", [(2, 3, 4), (2, 5, 4), (2, 5, 3)],
        lambda q, k, v: (sdpa(q, k, v, torch.zeros(3, 5).masked_fill(~keep, float("-inf"))),)),
    run("sdpa_causal", [(1, 2, 4, 3), (1, 2, 4, 3), (1, 2, 4, 2)],
        lambda q, k, v: (sdpa(q, k, v, causal_bias(4)),)),
    run("mha_self_masked", [(3, 2, 4)],
        lambda x: mha(x, x, x, key_padding_mask=padding, attn_mask=causal_bias(3)),
        mha, ["in_proj_weight", "out_proj.weight"]),
    run("mha_cross", [(3, 2, 4), (5, 2, 4), (5, 2, 4)],
        lambda q, k, v: mha(q, k, v, attn_mask=~keep), mha, ["in_proj_weight", "in_proj_bias"]),
    run("mha_kdim_vdim_per_head", [(3, 2, 4), (5, 2, 3), (5, 2, 5)],
        lambda q, k, v: mha_kv(q, k, v, key_padding_mask=memory_padding,
                               average_attn_weights=False),
        mha_kv, ["q_proj_weight", "bias_k"]),
    run("mha_unbatched", [(3, 6), (5, 6), (5, 6)],
        lambda q, k, v: mha_unbatched(q, k, v, attn_mask=~keep), mha_unbatched,
        ["in_proj_weight"]),
    run("encoder_layer", [(3, 2, 4)],
        lambda x: (encoder_layer(x, src_mask=causal_bias(3), src_key_padding_mask=padding),),
        encoder_layer, ["self_attn.in_proj_weight", "linear1.weight"]),
    run("decoder_layer", [(3, 2, 4), (5, 2, 4)],
        lambda t, m: (decoder_layer(t, m, tgt_mask=causal_bias(3),
                                    memory_key_padding_mask=memory_padding),),
        decoder_layer, ["multihead_attn.in_proj_weight"]),
    run("encoder_with_norm", [(3, 2, 4)], lambda x: (encoder(x, mask=causal_bias(3)),), encoder,
        ["layers.1.linear2.weight", "norm.weight"]),
    run("transformer", [(5, 2, 4), (3, 2, 4)],
        lambda s, t: (transformer(s, t, tgt_mask=causal_bias(3)),), transformer,
        ["encoder.layers.0.self_attn.in_proj_weight"]),
]

write_reference_header(
    "gen_attention_reference.py",
    "Outputs, gradients and parameter shapes of torch's attention and Transformer modules for\n"
    "// attention_test.cpp's cases.", "attention_reference", cases)
