#!/usr/bin/env python3
"""Writes tests/nn/embedding_bag_reference.h: what embedding_bag_test.cpp expects, from torch
1.13's F.embedding_bag (each mode; 1-D input with offsets and 2-D input; include_last_offset;
empty bags; padding_idx; per_sample_weights; max_norm) and F.embedding's max_norm and
scale_grad_by_freq, in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_embedding_bag_reference.py
The weight [10, 3] (and per_sample_weights) are reference_header.py's filled tensors; the
indices are written out in each case. The header holds the outputs (with max_norm also the
weight after the call, renormalised in place) and the gradients of every floating input.

torch 1.13's embedding_bag gives wrong weight gradients with scale_grad_by_freq (a row's count
is looked up at the wrong place), so that case is checked by hand in the test instead.
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional
WEIGHT = (10, 3)
INDICES = [1, 2, 4, 5, 4, 3, 2, 9]
OFFSETS = [0, 2, 2, 5]  # bag 1 is empty
INPUT_2D = [[0, 2, 3], [3, 3, 1]]
PAD_INDICES = [1, 2, 4, 2, 2, 3, 2]
PAD_OFFSETS = [0, 3, 3, 5, 6]  # bag 1 empty, bag 2 only padding (2)


def long(values):
    return torch.tensor(values, dtype=torch.long)


def bag(name, indices, offsets, mode, **kwargs):
    offsets = None if offsets is None else long(offsets)
    return run(name, [WEIGHT], [0],
               lambda w: (F.embedding_bag(long(indices), w, offsets, mode=mode, **kwargs),))


def weighted(name, indices, offsets, **kwargs):
    offsets = None if offsets is None else long(offsets)
    shape = tuple(long(indices).shape)
    return run(name, [WEIGHT, shape], [0, 1],
               lambda w, p: (F.embedding_bag(long(indices), w, offsets, mode="sum",
                                             per_sample_weights=p, **kwargs),))


def renormed(name, forward):
    """A max_norm case: the output and the weight after the call."""
    return run(name, [WEIGHT], [0], lambda w: (forward(w), w.detach().clone()))


cases = []
for mode in ("sum", "mean", "max"):
    cases += [
        bag(f"{mode}_offsets", INDICES, OFFSETS, mode),
        bag(f"{mode}_2d", INPUT_2D, None, mode),
        bag(f"{mode}_last_offset", INDICES[:6], [0, 2, 2, 6], mode, include_last_offset=True),
        bag(f"{mode}_padding", PAD_INDICES, PAD_OFFSETS, mode, padding_idx=-8),
        bag(f"{mode}_padding_2d", [[2, 2], [2, 7], [5, 4]], None, mode, padding_idx=2),
        renormed(f"{mode}_max_norm",
                 lambda w, mode=mode: F.embedding_bag(long(INDICES), w, long(OFFSETS), mode=mode,
                                                      max_norm=1.2)),
    ]
cases += [
    weighted("weighted_offsets", INDICES, OFFSETS),
    weighted("weighted_2d", INPUT_2D, None),
    weighted("weighted_padding", PAD_INDICES, PAD_OFFSETS, padding_idx=2),
    renormed("sum_max_norm_l1",
             lambda w: F.embedding_bag(long(INDICES), w, long(OFFSETS), mode="sum", max_norm=2.0,
                                       norm_type=1.0)),
    renormed("embedding_max_norm",
             lambda w: F.embedding(long(INPUT_2D), w, max_norm=1.2)),
    renormed("embedding_max_norm_l3_padding",
             lambda w: F.embedding(long(INPUT_2D), w, max_norm=1.0, norm_type=3.0, padding_idx=3)),
    run("embedding_scale_grad_by_freq", [WEIGHT], [0],
        lambda w: (F.embedding(long([[1, 1, 2], [0, 1, 4]]), w, scale_grad_by_freq=True),)),
    run("embedding_scale_grad_by_freq_padding", [WEIGHT], [0],
        lambda w: (F.embedding(long([[1, 1, 2], [0, 1, 0]]), w, scale_grad_by_freq=True,
                               padding_idx=0),)),
]

write_reference_header(
    "gen_embedding_bag_reference.py",
    "Outputs and gradients of torch's F.embedding_bag and of F.embedding's max_norm and "
    "scale_grad_by_freq, for embedding_bag_test.cpp's cases.",
    "embedding_bag_reference", cases)
