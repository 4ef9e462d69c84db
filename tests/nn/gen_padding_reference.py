#!/usr/bin/env python3
"""Writes tests/nn/padding_reference.h: what padding_test.cpp expects, from torch 1.13's F.pad in
its four modes and a convolution of reflect- and circular-padded input (what Conv2d's
padding_mode does), in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_padding_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each output times cos(0.31 k + j) (j the output's position). The header
holds the outputs and the gradients of every input ("grad0", "grad1", ...).
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional


def case(name, shapes, forward):
    """A case whose every input requires grad."""
    return run(name, shapes, range(len(shapes)), forward)


def pad(name, shape, widths, mode, value=0.0):
    return case(name, [shape], lambda x: (F.pad(x, widths, mode=mode, value=value),))


cases = [
    # constant: pads and crops (negative widths) on any number of trailing dims.
    pad("constant_1d", (2, 3), (2, 1), "constant", 0.5),
    pad("constant_crop", (2, 3, 4), (1, -1, 2, 0, 0, 1), "constant", -1.5),
    # reflect, replicate, circular: 1, 2 and 3 padded dims, batched and unbatched.
    pad("reflect_1d", (2, 3, 5), (2, 1), "reflect"),
    pad("reflect_2d", (1, 2, 4, 5), (1, 2, 3, 0), "reflect"),
    pad("reflect_3d_unbatched", (1, 3, 4, 3), (1, 1, 2, 0, 1, 2), "reflect"),
    pad("replicate_1d_unbatched", (3, 4), (3, 1), "replicate"),
    pad("replicate_2d", (2, 1, 3, 3), (2, 2, 1, 3), "replicate"),
    pad("replicate_3d", (1, 2, 2, 3, 2), (1, 0, 2, 1, 1, 1), "replicate"),
    pad("circular_1d", (1, 2, 4), (2, 3), "circular"),
    pad("circular_2d", (1, 1, 3, 4), (1, 2, 2, 1), "circular"),
    pad("circular_3d", (1, 1, 2, 3, 3), (1, 1, 0, 2, 2, 1), "circular"),
    # Conv2d(padding=(2, 1), padding_mode=...) is conv2d of F.pad(x, (1, 1, 2, 2), mode).
    case("conv2d_reflect", [(2, 2, 5, 4), (3, 2, 3, 2), (3,)],
         lambda x, w, b: (F.conv2d(F.pad(x, (1, 1, 2, 2), mode="reflect"), w, b),)),
    case("conv1d_circular", [(2, 2, 5), (3, 2, 3), (3,)],
         lambda x, w, b: (F.conv1d(F.pad(x, (2, 2), mode="circular"), w, b),)),
]

write_reference_header(
    "gen_padding_reference.py",
    "Outputs and gradients of torch's F.pad in its four modes, and of convolutions of padded "
    "input, for padding_test.cpp's cases.",
    "padding_reference", cases)
