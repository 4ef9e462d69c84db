#!/usr/bin/env python3
"""Writes tests/nn/conv3d_reference.h: what conv3d_test.cpp expects, from torch 1.13's F.conv3d
(stride, padding, dilation, groups, bias or none, unbatched), nn.Conv3d's padding_mode, and the
padding="same" / "valid" strings of conv1d/2d/3d (functional and, with a padding_mode, the
layers), in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_conv3d_reference.py
Each case fills its i-th tensor with cos(0.23 k + 0.7 i) (k the flat index), calls the op, and
takes as loss the sum of each output times cos(0.31 k + j) (j the output's position). The header
holds the outputs and the gradients of every input ("grad0", "grad1", ...).
"""
import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional
nn = torch.nn


def case(name, shapes, forward):
    """A case whose every input requires grad."""
    return run(name, shapes, range(len(shapes)), forward)


def layer(cls, in_channels, out_channels, kernel_size, **kwargs):
    """forward(x, w, b) through the layer's own padding_mode and padding (its _conv_forward)."""
    module = cls(in_channels, out_channels, kernel_size, **kwargs)
    return lambda x, w, b: (module._conv_forward(x, w, b),)


cases = [
    case("conv3d_basic", [(2, 2, 4, 5, 4), (3, 2, 2, 3, 2), (3,)],
         lambda x, w, b: (F.conv3d(x, w, b),)),
    case("conv3d_stride_padding_dilation", [(1, 2, 5, 6, 5), (4, 2, 2, 2, 3), (4,)],
         lambda x, w, b: (F.conv3d(x, w, b, stride=(2, 1, 2), padding=(1, 2, 0),
                                   dilation=(2, 1, 1)),)),
    case("conv3d_groups_no_bias", [(2, 4, 4, 4, 3), (6, 2, 2, 2, 2)],
         lambda x, w: (F.conv3d(x, w, None, stride=1, padding=1, groups=2),)),
    case("conv3d_unbatched", [(2, 3, 4, 4), (2, 2, 3, 1, 2), (2,)],
         lambda x, w, b: (F.conv3d(x, w, b, padding=(1, 0, 1), dilation=(1, 2, 1)),)),
    case("conv3d_reflect", [(2, 2, 3, 4, 4), (3, 2, 3, 2, 2), (3,)],
         layer(nn.Conv3d, 2, 3, (3, 2, 2), padding=(1, 2, 1), padding_mode="reflect")),
    case("conv3d_circular", [(1, 2, 4, 3, 5), (2, 2, 2, 2, 3), (2,)],
         layer(nn.Conv3d, 2, 2, (2, 2, 3), stride=2, padding=(1, 1, 2), padding_mode="circular")),
    # padding="same": total dilation * (k - 1) per dim, the odd element on the right.
    case("conv1d_same", [(2, 2, 7), (3, 2, 4), (3,)],
         lambda x, w, b: (F.conv1d(x, w, b, padding="same"),)),
    case("conv2d_same", [(1, 2, 5, 6), (2, 2, 4, 3), (2,)],
         lambda x, w, b: (F.conv2d(x, w, b, padding="same", dilation=(1, 2)),)),
    case("conv3d_same", [(1, 2, 4, 5, 7), (2, 2, 2, 3, 2), (2,)],
         lambda x, w, b: (F.conv3d(x, w, b, padding="same", dilation=(1, 1, 3)),)),
    case("conv3d_same_unbatched_groups", [(4, 3, 4, 5), (2, 2, 3, 3, 3)],
         lambda x, w: (F.conv3d(x, w, None, padding="same", groups=2),)),
    case("conv1d_valid", [(2, 2, 7), (3, 2, 4), (3,)],
         lambda x, w, b: (F.conv1d(x, w, b, stride=2, padding="valid"),)),
    case("conv2d_valid", [(1, 2, 5, 6), (2, 2, 4, 3), (2,)],
         lambda x, w, b: (F.conv2d(x, w, b, stride=(1, 2), padding="valid"),)),
    case("conv3d_valid", [(1, 2, 4, 5, 7), (2, 2, 2, 3, 2), (2,)],
         lambda x, w, b: (F.conv3d(x, w, b, stride=(2, 1, 3), padding="valid"),)),
    # The layers with padding="same" and a padding_mode: F.pad by the same amounts, left first.
    case("conv1d_same_reflect", [(2, 2, 6), (3, 2, 4), (3,)],
         layer(nn.Conv1d, 2, 3, 4, padding="same", padding_mode="reflect")),
    case("conv2d_same_circular", [(1, 2, 5, 6), (2, 2, 4, 3), (2,)],
         layer(nn.Conv2d, 2, 2, (4, 3), padding="same", dilation=(1, 2),
               padding_mode="circular")),
    case("conv3d_same_replicate", [(1, 2, 4, 5, 5), (2, 2, 2, 3, 4), (2,)],
         layer(nn.Conv3d, 2, 2, (2, 3, 4), padding="same", padding_mode="replicate")),
]

write_reference_header(
    "gen_conv3d_reference.py",
    "Outputs and gradients of torch's conv3d, Conv3d's padding modes and the 'same' / 'valid' "
    "paddings, for conv3d_test.cpp's cases.",
    "conv3d_reference", cases)
