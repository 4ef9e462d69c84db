#!/usr/bin/env python3
"""Writes tests/nn/upsampling_reference.h: what upsampling_test.cpp expects, from torch 1.13's
F.interpolate in each of its modes and input ranks, in float64.

Run with torch installed (the committed values were made with Debian's python3-torch 1.13):
    /usr/bin/python3 tests/nn/gen_upsampling_reference.py
Each case fills its input with cos(0.23 k) (k the flat index), calls interpolate, and takes as
loss the sum of the output times cos(0.31 k). The header holds the output ("output0") and the
input's gradient ("grad0"). The cases cover size and scale_factor (integer, fractional and
below 1), align_corners true and false, recompute_scale_factor, and the special cases of
PyTorch's CPU kernels (nearest's output == 2 * input, where PyTorch's backward disagrees with its
forward; linear's output == input copy).
"""
import warnings

import torch
from reference_header import run, write_reference_header

torch.set_default_dtype(torch.float64)
F = torch.nn.functional
warnings.simplefilter("ignore")  # the float scale_factor and align_corners default warnings


def interp(name, shape, mode, size=None, scale_factor=None, align_corners=None,
           recompute_scale_factor=None):
    return run(name, [shape], [0], lambda x: (F.interpolate(
        x, size=size, scale_factor=scale_factor, mode=mode, align_corners=align_corners,
        recompute_scale_factor=recompute_scale_factor),))


cases = [
    # nearest: floor(dst * in / out), or floor(dst / scale_factor) when scale_factor is given.
    interp("nearest_1d_size", (2, 3, 5), "nearest", size=[8]),
    interp("nearest_1d_down", (1, 2, 7), "nearest", size=[3]),
    # (upsampling_test.cpp compares only this case's output: see NearestTwiceSizeMatchesPyTorchOutput)
    interp("nearest_1d_twice_shortcut", (1, 1, 5), "nearest", scale_factor=[2.1]),
    interp("nearest_1d_recompute", (1, 1, 5), "nearest", scale_factor=[2.5],
           recompute_scale_factor=True),
    interp("nearest_2d_scale", (1, 2, 3, 4), "nearest", scale_factor=[2.0, 1.5]),
    interp("nearest_2d_down", (1, 1, 5, 7), "nearest", scale_factor=[0.6, 0.45]),
    interp("nearest_3d_size", (1, 1, 2, 3, 4), "nearest", size=[3, 5, 6]),
    # nearest-exact: floor((dst + 0.5) * scale).
    interp("nearest_exact_1d", (1, 2, 5), "nearest-exact", scale_factor=[1.7]),
    interp("nearest_exact_2d", (1, 1, 5, 4), "nearest-exact", size=[3, 7]),
    interp("nearest_exact_3d", (1, 1, 3, 2, 4), "nearest-exact", scale_factor=[1.5, 2.0, 0.75]),
    # linear, bilinear, trilinear.
    interp("linear_1d_align", (2, 2, 5), "linear", size=[9], align_corners=True),
    interp("linear_1d_half", (2, 2, 5), "linear", scale_factor=[1.3], align_corners=False),
    interp("linear_1d_down", (1, 2, 9), "linear", size=[4], align_corners=False),
    interp("linear_1d_same_size", (1, 1, 4), "linear", scale_factor=[1.1], align_corners=False),
    interp("linear_1d_align_one", (1, 2, 4), "linear", size=[1], align_corners=True),
    interp("bilinear_2d_scale", (1, 2, 4, 5), "bilinear", scale_factor=[1.5, 0.7],
           align_corners=False),
    interp("bilinear_2d_align", (1, 2, 4, 5), "bilinear", size=[7, 3], align_corners=True),
    interp("bilinear_2d_recompute", (1, 1, 5, 4), "bilinear", scale_factor=[1.7, 2.3],
           align_corners=False, recompute_scale_factor=True),
    interp("trilinear_3d_scale", (1, 1, 3, 4, 2), "trilinear", scale_factor=[2.0, 1.5, 2.5],
           align_corners=False),
    interp("trilinear_3d_align", (1, 2, 2, 3, 4), "trilinear", size=[3, 5, 2], align_corners=True),
    # bicubic: four taps with A = -0.75, clamped at the borders.
    interp("bicubic_2d_size", (1, 2, 4, 5), "bicubic", size=[7, 8], align_corners=False),
    interp("bicubic_2d_align", (1, 1, 5, 4), "bicubic", size=[3, 9], align_corners=True),
    interp("bicubic_2d_scale", (1, 1, 4, 6), "bicubic", scale_factor=[1.6, 0.5],
           align_corners=False),
    interp("bicubic_2d_recompute", (1, 1, 4, 4), "bicubic", scale_factor=[1.3, 2.1],
           align_corners=False, recompute_scale_factor=True),
    # area: adaptive average pooling to the output size.
    interp("area_1d", (1, 2, 7), "area", size=[3]),
    interp("area_2d", (1, 2, 6, 5), "area", scale_factor=[0.5, 0.7]),
    interp("area_3d", (1, 1, 4, 6, 5), "area", size=[2, 3, 4]),
]

write_reference_header(
    "gen_upsampling_reference.py",
    "Outputs and input gradients of torch's F.interpolate in each mode, for upsampling_test.cpp's "
    "cases.",
    "upsampling_reference", cases)
